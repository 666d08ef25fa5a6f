import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { Block } from '../http/blocks';

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

  @Block(() => LinkToIdentityDto, { optional: true })
  link_to_identity?: LinkToIdentityDto;
}
