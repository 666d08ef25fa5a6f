import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';

export class LinkToIdentityDto {
  @IsOptional()
  @IsString()
  @Matches(/^per_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'person_id must be a person_id (per_…) from entity creation' })
  person_id?: string;
}

/** The text fields of POST /documents/upload; `file` arrives through the upload interceptor. */
export class UploadDocumentDto {
  @IsIn(['identity', 'address'], { message: 'key must be identity or address' })
  key: 'identity' | 'address';

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LinkToIdentityDto)
  link_to_identity?: LinkToIdentityDto;
}
