import { ApiPropertyOptional, ApiSchema, getSchemaPath, PartialType } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Block, BlockList } from '../http/blocks';
import { IsStringMap } from '../onboarding/validators';
import {
  AddressDto,
  BusinessIdentificationDto,
  IDENTIFICATION_ITEMS_MAX,
  IndividualIdentificationDto,
  PhoneDto,
} from './counterparty-profile.dto';

const ENTITY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Any subset of an address: merged into the current one, then checked whole by the domain. */
@ApiSchema({ name: 'CounterpartyAddressPatch' })
export class AddressPatchDto extends PartialType(AddressDto) {}

class ProfilePatchCommon {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  relationship?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'email', maxLength: 254 })
  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string | null;
  @ApiPropertyOptional({
    type: () => AddressPatchDto,
    nullable: true,
    description: 'Merged into the current address; null clears it',
  })
  @Block(() => AddressPatchDto, { optional: true, nullable: true })
  address?: AddressPatchDto | null;
  @ApiPropertyOptional({ type: () => PhoneDto, nullable: true })
  @Block(() => PhoneDto, { optional: true, nullable: true })
  phone?: PhoneDto | null;
}

export class IndividualProfilePatchDto extends ProfilePatchCommon {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @IsOptional() @IsString() @Length(1, 100) first_name?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @IsOptional() @IsString() @Length(1, 100) last_name?: string;
  @ApiPropertyOptional({ type: () => IndividualIdentificationDto, isArray: true, maxItems: IDENTIFICATION_ITEMS_MAX })
  @BlockList(() => IndividualIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: IndividualIdentificationDto[];
}

export class BusinessProfilePatchDto extends ProfilePatchCommon {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @IsOptional() @IsString() @Length(1, 255) legal_name?: string;
  @ApiPropertyOptional({ minLength: 0, maxLength: 255, type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  trading_name?: string | null;
  @ApiPropertyOptional({ type: () => BusinessIdentificationDto, isArray: true, maxItems: IDENTIFICATION_ITEMS_MAX })
  @BlockList(() => BusinessIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: BusinessIdentificationDto[];
}

class PatchBase {
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Reassigns the counterparty to another entity (API key), or confirms the scope',
  })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @IsOptional() @IsString() @Length(1, 255) nickname?: string;
  /** Merged by key; "" removes a key. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Merged by key; "" removes a key',
  })
  @IsOptional()
  @IsStringMap()
  meta?: Record<string, string>;
}

/** The two shapes a PATCH body may take, documented as `anyOf` (the stored type, not the body, says which applies). */
export class PatchIndividualCounterpartyDto extends PatchBase {
  @ApiPropertyOptional({ type: () => IndividualProfilePatchDto })
  @Block(() => IndividualProfilePatchDto, { optional: true })
  profile?: IndividualProfilePatchDto;
}

export class PatchBusinessCounterpartyDto extends PatchBase {
  @ApiPropertyOptional({ type: () => BusinessProfilePatchDto })
  @Block(() => BusinessProfilePatchDto, { optional: true })
  profile?: BusinessProfilePatchDto;
}

/** A profile patch that names a business's own field or identification type (L) is of the business shape. */
function businessShaped(profile: unknown): boolean {
  if (!profile || typeof profile !== 'object') return false;
  const { legal_name, trading_name, identification } = profile as Record<string, unknown>;
  return (
    legal_name !== undefined ||
    trading_name !== undefined ||
    (Array.isArray(identification) && identification.some((item) => (item as { type?: unknown } | null)?.type === 'L'))
  );
}

/**
 * What the PATCH route validates: either shape, the profile checked as the one its own fields
 * point at. The body does not carry the counterparty's type, so a field of the other type than
 * the stored one passes here and the domain refuses it (applyProfile), with the same answer.
 */
export class PatchCounterpartyDto extends PatchBase {
  @ApiPropertyOptional({
    anyOf: [{ $ref: getSchemaPath(IndividualProfilePatchDto) }, { $ref: getSchemaPath(BusinessProfilePatchDto) }],
  })
  @Block(
    (options) =>
      businessShaped((options?.object as { profile?: unknown } | undefined)?.profile)
        ? BusinessProfilePatchDto
        : IndividualProfilePatchDto,
    { optional: true },
  )
  profile?: IndividualProfilePatchDto | BusinessProfilePatchDto;
}
