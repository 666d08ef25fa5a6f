import { Expose } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, ValidateBy, type ValidationArguments } from 'class-validator';
import { Block } from '../http/blocks';

export class LinkToIdentityDto {
  @ApiPropertyOptional({
    pattern: '^per_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'The person_id of the individual entity',
  })
  @IsOptional()
  @IsString()
  @Matches(/^per_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'person_id must be a person_id (per_…) from entity creation' })
  person_id?: string;
}

/** The form of POST /documents/upload: its text fields and the file the upload interceptor parsed. */
export class UploadDocumentDto {
  @ApiProperty({
    enum: ['identity', 'address'],
    description: 'identity: a government photo ID; address: a proof of address dated within 3 months',
  })
  @IsIn(['identity', 'address'], { message: 'key must be identity or address' })
  key: 'identity' | 'address';

  @ApiPropertyOptional({ type: () => LinkToIdentityDto })
  @Block(() => LinkToIdentityDto, { optional: true })
  link_to_identity?: LinkToIdentityDto;

  /** The uploaded part (DocumentUploadInterceptor); the route's @ApiBody writes the form's schema. */
  @ApiProperty({ type: 'string', format: 'binary', description: 'PDF, JPEG or PNG (judged by content), at most 10 MB' })
  @Expose()
  @ValidateBy({
    name: 'isUploadedFile',
    validator: {
      validate: (value: unknown) => Buffer.isBuffer((value as Partial<Express.Multer.File> | undefined)?.buffer),
      // Missing, or a text field of that name (not the file part).
      defaultMessage: (args?: ValidationArguments) =>
        args?.value === undefined
          ? 'file is required (multipart/form-data, field "file")'
          : 'file is not an accepted field',
    },
  })
  file: Express.Multer.File;
}
