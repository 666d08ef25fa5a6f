import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
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

/** The text fields of POST /documents/upload; `file` arrives through the upload interceptor. */
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
}
