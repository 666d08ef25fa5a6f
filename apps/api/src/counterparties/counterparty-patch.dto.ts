import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Block, BlockList } from '../http/blocks';
import { IsCountryCode, IsStringMap } from '../onboarding/validators';
import { BusinessIdentificationDto, IDENTIFICATION_ITEMS_MAX, IndividualIdentificationDto, PhoneDto } from './counterparty-profile.dto';

const ENTITY_ID = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Any subset of an address: merged into the current one, then checked whole by the domain. */
export class AddressPatchDto {
  @IsOptional() @IsString() @Length(1, 255) line1?: string;
  @IsOptional() @IsString() @Length(1, 255) line2?: string | null;
  @IsOptional() @IsString() @Length(1, 100) city?: string;
  @IsOptional() @IsString() @MaxLength(100) state_or_province?: string | null;
  @IsOptional() @IsString() @MaxLength(20) postal_code?: string | null;
  @IsOptional() @IsCountryCode() country?: string;
}

class ProfilePatchCommon {
  @IsOptional() @IsString() @Length(1, 100) relationship?: string | null;
  @IsOptional() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string | null;
  @Block(() => AddressPatchDto, { optional: true, nullable: true }) address?: AddressPatchDto | null;
  @Block(() => PhoneDto, { optional: true, nullable: true }) phone?: PhoneDto | null;
}

export class IndividualProfilePatchDto extends ProfilePatchCommon {
  @IsOptional() @IsString() @Length(1, 100) first_name?: string;
  @IsOptional() @IsString() @Length(1, 100) last_name?: string;
  @BlockList(() => IndividualIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: IndividualIdentificationDto[];
}

export class BusinessProfilePatchDto extends ProfilePatchCommon {
  @IsOptional() @IsString() @Length(1, 255) legal_name?: string;
  @IsOptional() @IsString() @MaxLength(255) trading_name?: string | null;
  @BlockList(() => BusinessIdentificationDto, IDENTIFICATION_ITEMS_MAX, { optional: true })
  identification?: BusinessIdentificationDto[];
}

class PatchBase {
  @IsOptional() @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' }) entity_id?: string;
  @IsOptional() @IsString() @Length(1, 255) nickname?: string;
  /** Merged by key; "" removes a key. */
  @IsOptional() @IsStringMap() meta?: Record<string, string>;
}

/** PATCH bodies are validated after the counterparty's type is known (the body does not carry it). */
export class PatchIndividualCounterpartyDto extends PatchBase {
  @Block(() => IndividualProfilePatchDto, { optional: true }) profile?: IndividualProfilePatchDto;
}

export class PatchBusinessCounterpartyDto extends PatchBase {
  @Block(() => BusinessProfilePatchDto, { optional: true }) profile?: BusinessProfilePatchDto;
}
