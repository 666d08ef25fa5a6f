import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { MAX_TOKEN_SECONDS } from '@app/application/access';

export class CreateApiKeyDto {
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @IsOptional()
  @IsIn(['sandbox', 'live'])
  mode?: 'sandbox' | 'live';
}

export class CreateEntityTokenDto {
  @IsString()
  @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id: string;

  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(MAX_TOKEN_SECONDS)
  expires_in?: number;
}
