import { IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Length, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Block, BlockList } from '../http/blocks';
import { BUSINESS_TYPES } from './entity.dto';
import { IsBirthDate, IsCalendarDate, IsCountryCode, IsStringMap } from './validators';

/** Absent is fine, null is not: for fields an update may change but never clear. */
const Given = () => ValidateIf((_object, value) => value !== undefined);
const Nested = (type: () => new () => object) => Block(type, { optional: true });
const Text = (max: number) => (target: object, key: string) => {
  Given()(target, key);
  IsString()(target, key);
  Length(1, max)(target, key);
};
const E164 = /^\+[1-9]\d{6,14}$/;
const RELATIONSHIPS = ['director', 'owner', 'shareholder', 'officer', 'partner', 'parent', 'other'] as const;

export class AddressPatchDto {
  @Text(255) line_1?: string;
  @Text(255) line_2?: string;
  @Text(255) line_3?: string;
  @Given() @IsStringMap() meta?: Record<string, string>;
  @Text(100) city?: string;
  @Text(100) state?: string;
  @Text(20) postal_code?: string;
  @Given() @IsCountryCode() country_code?: string;
}

class TypeSpecificDto {
  @Text(50) id_subtype?: string;
}

export class IdentityDocumentDto {
  @Text(50) type?: string;
  @Text(100) number?: string;
  @Given() @IsCalendarDate() issue_date?: string;
  @Given() @IsCalendarDate() expiry_date?: string;
  @Given() @IsCountryCode() issuing_country?: string;
  @Text(255) issuing_authority?: string;
  @Given() @Matches(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'document_id must be a document id (doc_…)' }) document_id?: string;
  @Nested(() => TypeSpecificDto) type_specific?: TypeSpecificDto;
}

export class ProofOfAddressDto {
  @Given() @IsIn(['utility', 'bank_statement'], { message: 'type must be utility or bank_statement' }) type?: 'utility' | 'bank_statement';
  @Given() @Matches(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'document_id must be a document id (doc_…)' }) document_id?: string;
}

export class IdentificationDto {
  @Nested(() => IdentityDocumentDto) document?: IdentityDocumentDto;
  @Nested(() => ProofOfAddressDto) proof_of_address?: ProofOfAddressDto;
}

class PersonFieldsDto {
  @Text(100) first_name?: string;
  @Text(100) last_name?: string;
  @Text(100) middle_name?: string;
  @Given() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string;
  @Given() @IsBirthDate() date_of_birth?: string;
  @Given() @IsCountryCode() nationality?: string;
  @Text(30) gender?: string;
}

export class IndividualPersonDto extends PersonFieldsDto {
  @Given() @Matches(E164, { message: 'phonenumber must be in E.164 format (+2348012345678)' }) phonenumber?: string;
  @Given() @IsCountryCode() country_of_residence?: string;
}

export class OfficerPersonDto extends PersonFieldsDto {
  @Given() @IsStringMap() meta?: Record<string, string>;
  @Nested(() => IdentificationDto) identification?: IdentificationDto;
  @Nested(() => AddressPatchDto) address?: AddressPatchDto;
}

/** Fields every entity update may carry; `null` clears the optional ones. */
class EntityFieldsDto {
  @IsOptional() @IsString() @Length(1, 255) name?: string | null;
  @IsOptional() @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'parent_entity must be an entity id (ent_…)' }) parent_entity?: string | null;
  @IsOptional() @IsIn(RELATIONSHIPS, { message: `parent_relationship must be one of ${RELATIONSHIPS.join(', ')}` }) parent_relationship?: string | null;
}

export class UpdateIndividualEntityDto extends EntityFieldsDto {
  @Nested(() => IndividualPersonDto) person?: IndividualPersonDto;
  @Nested(() => AddressPatchDto) address?: AddressPatchDto;
  @Nested(() => IdentificationDto) identification?: IdentificationDto;
}

class IncorporationMetaDto {
  @Given() @IsInt() @Min(1800) @Max(9999) year?: number;
  @Given() @IsInt() @Min(1) @Max(12) month?: number;
  @Given() @IsCountryCode() country?: string;
  @Text(100) state?: string;
}

export class BusinessFieldsDto {
  @Text(255) legal_name?: string;
  @Text(255) trade_name?: string;
  @Given() @IsUrl({ require_protocol: true, protocols: ['https', 'http'] }, { message: 'website must be an http(s) URL' }) website?: string;
  @Text(1000) description?: string;
  @Given() @IsIn(BUSINESS_TYPES, { message: `type must be one of ${BUSINESS_TYPES.join(', ')}` }) type?: (typeof BUSINESS_TYPES)[number];
  @Given() @Matches(E164, { message: 'phonenumber must be in E.164 format (+2348012345678)' }) phonenumber?: string;
  @Given() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string;
  @Text(100) registration_number?: string;
  @Nested(() => IncorporationMetaDto) incorporation_meta?: IncorporationMetaDto;
}

export class OfficerDto {
  @Given() @IsIn(['add', 'update', 'remove'], { message: 'action must be add, update or remove' }) action?: 'add' | 'update' | 'remove';
  @Given() @Matches(/^off_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'id must be an officer id (off_…)' }) id?: string;
  @Given() @Matches(/^per_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'person_id must be a person_id (per_…)' }) person_id?: string;
  @Text(100) job_title?: string;
  @Given() @IsBoolean() is_control_person?: boolean;
  @Given() @IsBoolean() is_beneficial_owner?: boolean;
  @Given() @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }) @Min(0) @Max(100) ownership_percentage?: number;
  @Nested(() => OfficerPersonDto) person?: OfficerPersonDto;
}

export class UpdateBusinessEntityDto extends EntityFieldsDto {
  @Nested(() => BusinessFieldsDto) business?: BusinessFieldsDto;
  @Nested(() => AddressPatchDto) address?: AddressPatchDto;
  @Nested(() => AddressPatchDto) operating_address?: AddressPatchDto;
  @BlockList(() => OfficerDto, 50, { optional: true }) business_officers?: OfficerDto[];
  @Given() @IsStringMap() meta?: Record<string, string>;
}
