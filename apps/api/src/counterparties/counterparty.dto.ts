import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsNotEmptyObject, IsOptional, IsString, Length, Matches } from 'class-validator';
import { Block } from '../http/blocks';
import { StyleAQuery } from '../http/pagination';
import { IsStringMap } from '../onboarding/validators';
import { BusinessProfileDto, IndividualProfileDto } from './counterparty-profile.dto';

export const ENTITY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
const ENTITY_MESSAGE = { message: 'entity_id must be an entity id (ent_…)' };

export class CreateCounterpartyDto {
  @ApiProperty({ enum: ['individual', 'business'] })
  @IsIn(['individual', 'business'], { message: 'type must be individual or business' })
  type: 'individual' | 'business';

  /** Required with an API key, inferred from an entity token (entityScope). */
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required with an API key; inferred from an entity token',
  })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Defaults to the name' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  nickname?: string;

  /** The profile's shape follows `type`. */
  @ApiProperty({
    description: 'IndividualProfileDto when type is individual, BusinessProfileDto when business',
    oneOf: [{ $ref: getSchemaPath(IndividualProfileDto) }, { $ref: getSchemaPath(BusinessProfileDto) }],
  })
  @Block((options) =>
    (options?.object as { type?: unknown })?.type === 'business' ? BusinessProfileDto : IndividualProfileDto,
  )
  @IsNotEmptyObject()
  profile: IndividualProfileDto | BusinessProfileDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}

export class ListCounterpartiesQuery extends StyleAQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
  @ApiPropertyOptional({ enum: ['individual', 'business'] })
  @IsOptional()
  @IsIn(['individual', 'business'], { message: 'type must be individual or business' })
  type?: string;
  @ApiPropertyOptional({ enum: ['active', 'inactive'] })
  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'status must be active or inactive' })
  status?: string;
}

export class EntityScopeQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

export class DeactivateCounterpartyDto {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

export class ListPaymentDetailsQuery extends StyleAQuery {}
