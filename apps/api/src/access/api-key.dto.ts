import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { MAX_TOKEN_SECONDS } from '@app/application/access';

export class CreateApiKeyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'A label for the key' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    enum: ['sandbox', 'live'],
    default: 'sandbox',
    description: 'A sandbox key creates sandbox keys only (403 forbidden_mode)',
  })
  @IsOptional()
  @IsIn(['sandbox', 'live'])
  mode?: 'sandbox' | 'live';
}

export class CreateEntityTokenDto {
  @ApiProperty({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The entity the token acts for' })
  @IsString()
  @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 60,
    maximum: MAX_TOKEN_SECONDS,
    default: 3600,
    description: 'Seconds',
  })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(MAX_TOKEN_SECONDS)
  expires_in?: number;
}
