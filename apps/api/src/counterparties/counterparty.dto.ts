import { IsIn, IsNotEmptyObject, IsOptional, IsString, Length, Matches } from 'class-validator';
import { Block } from '../http/blocks';
import { StyleAQuery } from '../http/pagination';
import { IsStringMap } from '../onboarding/validators';
import { BusinessProfileDto, IndividualProfileDto } from './counterparty-profile.dto';

export const ENTITY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
const ENTITY_MESSAGE = { message: 'entity_id must be an entity id (ent_…)' };

export class CreateCounterpartyDto {
  @IsIn(['individual', 'business'], { message: 'type must be individual or business' })
  type: 'individual' | 'business';

  /** Required with an API key, inferred from an entity token (entityScope). */
  @IsOptional() @Matches(ENTITY_ID, ENTITY_MESSAGE) entity_id?: string;

  @IsOptional() @IsString() @Length(1, 255) nickname?: string;

  /** The profile's shape follows `type`. */
  @Block((options) => ((options?.object as { type?: unknown })?.type === 'business' ? BusinessProfileDto : IndividualProfileDto))
  @IsNotEmptyObject()
  profile: IndividualProfileDto | BusinessProfileDto;

  @IsOptional() @IsStringMap() meta?: Record<string, string>;
}

export class ListCounterpartiesQuery extends StyleAQuery {
  @IsOptional() @Matches(ENTITY_ID, ENTITY_MESSAGE) entity_id?: string;
  @IsOptional() @IsIn(['individual', 'business'], { message: 'type must be individual or business' }) type?: string;
  @IsOptional() @IsIn(['active', 'inactive'], { message: 'status must be active or inactive' }) status?: string;
}

export class EntityScopeQuery {
  @IsOptional() @Matches(ENTITY_ID, ENTITY_MESSAGE) entity_id?: string;
}

export class DeactivateCounterpartyDto {
  @IsOptional() @Matches(ENTITY_ID, ENTITY_MESSAGE) entity_id?: string;
}

export class ListPaymentDetailsQuery extends StyleAQuery {}
