import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
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

@ApiSchema({ name: 'EntityAddressPatch' })
export class AddressPatchDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) line_1?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) line_2?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) line_3?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Given()
  @IsStringMap()
  meta?: Record<string, string>;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) city?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) state?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 20 }) @Text(20) postal_code?: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @Given()
  @IsCountryCode()
  country_code?: string;
}

class TypeSpecificDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 50 }) @Text(50) id_subtype?: string;
}

export class IdentityDocumentDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 50 }) @Text(50) type?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) number?: string;
  @ApiPropertyOptional({ format: 'date' }) @Given() @IsCalendarDate() issue_date?: string;
  @ApiPropertyOptional({ format: 'date' }) @Given() @IsCalendarDate() expiry_date?: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @Given()
  @IsCountryCode()
  issuing_country?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) issuing_authority?: string;
  @ApiPropertyOptional({ pattern: '^doc_[0-9A-HJKMNP-TV-Z]{26}$' })
  @Given()
  @Matches(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'document_id must be a document id (doc_…)' })
  document_id?: string;
  @ApiPropertyOptional({ type: () => TypeSpecificDto }) @Nested(() => TypeSpecificDto) type_specific?: TypeSpecificDto;
}

export class ProofOfAddressDto {
  @ApiPropertyOptional({ enum: ['utility', 'bank_statement'] })
  @Given()
  @IsIn(['utility', 'bank_statement'], { message: 'type must be utility or bank_statement' })
  type?: 'utility' | 'bank_statement';
  @ApiPropertyOptional({ pattern: '^doc_[0-9A-HJKMNP-TV-Z]{26}$' })
  @Given()
  @Matches(/^doc_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'document_id must be a document id (doc_…)' })
  document_id?: string;
}

export class IdentificationDto {
  @ApiPropertyOptional({ type: () => IdentityDocumentDto })
  @Nested(() => IdentityDocumentDto)
  document?: IdentityDocumentDto;
  @ApiPropertyOptional({ type: () => ProofOfAddressDto })
  @Nested(() => ProofOfAddressDto)
  proof_of_address?: ProofOfAddressDto;
}

class PersonFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) first_name?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) last_name?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) middle_name?: string;
  @ApiPropertyOptional({ format: 'email', maxLength: 254 })
  @Given()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string;
  @ApiPropertyOptional({ format: 'date' }) @Given() @IsBirthDate() date_of_birth?: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @Given()
  @IsCountryCode()
  nationality?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 30 }) @Text(30) gender?: string;
}

export class IndividualPersonDto extends PersonFieldsDto {
  @ApiPropertyOptional({ pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164' })
  @Given()
  @Matches(E164, { message: 'phonenumber must be in E.164 format (+2348012345678)' })
  phonenumber?: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @Given()
  @IsCountryCode()
  country_of_residence?: string;
}

export class OfficerPersonDto extends PersonFieldsDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Given()
  @IsStringMap()
  meta?: Record<string, string>;
  @ApiPropertyOptional({ type: () => IdentificationDto })
  @Nested(() => IdentificationDto)
  identification?: IdentificationDto;
  @ApiPropertyOptional({ type: () => AddressPatchDto }) @Nested(() => AddressPatchDto) address?: AddressPatchDto;
}

/** Fields every entity update may carry; `null` clears the optional ones. */
class EntityFieldsDto {
  @ApiPropertyOptional({ type: 'string', nullable: true, minLength: 1, maxLength: 255, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'parent_entity must be an entity id (ent_…)' })
  parent_entity?: string | null;
  @ApiPropertyOptional({ enum: RELATIONSHIPS, nullable: true })
  @IsOptional()
  @IsIn(RELATIONSHIPS, { message: `parent_relationship must be one of ${RELATIONSHIPS.join(', ')}` })
  parent_relationship?: string | null;
}

export class UpdateIndividualEntityDto extends EntityFieldsDto {
  @ApiPropertyOptional({ type: () => IndividualPersonDto })
  @Nested(() => IndividualPersonDto)
  person?: IndividualPersonDto;
  @ApiPropertyOptional({ type: () => AddressPatchDto }) @Nested(() => AddressPatchDto) address?: AddressPatchDto;
  @ApiPropertyOptional({ type: () => IdentificationDto })
  @Nested(() => IdentificationDto)
  identification?: IdentificationDto;
}

class IncorporationMetaDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1800, maximum: 9999 })
  @Given()
  @IsInt()
  @Min(1800)
  @Max(9999)
  year?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 12 }) @Given() @IsInt() @Min(1) @Max(12) month?: number;
  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })
  @Given()
  @IsCountryCode()
  country?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) state?: string;
}

export class BusinessFieldsDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) legal_name?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 }) @Text(255) trade_name?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'http(s) URL' })
  @Given()
  @IsUrl({ require_protocol: true, protocols: ['https', 'http'] }, { message: 'website must be an http(s) URL' })
  website?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 1000 }) @Text(1000) description?: string;
  @ApiPropertyOptional({ enum: BUSINESS_TYPES })
  @Given()
  @IsIn(BUSINESS_TYPES, { message: `type must be one of ${BUSINESS_TYPES.join(', ')}` })
  type?: (typeof BUSINESS_TYPES)[number];
  @ApiPropertyOptional({ pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164' })
  @Given()
  @Matches(E164, { message: 'phonenumber must be in E.164 format (+2348012345678)' })
  phonenumber?: string;
  @ApiPropertyOptional({ format: 'email', maxLength: 254 })
  @Given()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) registration_number?: string;
  @ApiPropertyOptional({ type: () => IncorporationMetaDto })
  @Nested(() => IncorporationMetaDto)
  incorporation_meta?: IncorporationMetaDto;
}

export class OfficerDto {
  @ApiPropertyOptional({ enum: ['add', 'update', 'remove'] })
  @Given()
  @IsIn(['add', 'update', 'remove'], { message: 'action must be add, update or remove' })
  action?: 'add' | 'update' | 'remove';
  @ApiPropertyOptional({
    pattern: '^off_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required to update or remove an officer',
  })
  @Given()
  @Matches(/^off_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'id must be an officer id (off_…)' })
  id?: string;
  @ApiPropertyOptional({
    pattern: '^per_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'An individual entity of the organization as officer',
  })
  @Given()
  @Matches(/^per_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'person_id must be a person_id (per_…)' })
  person_id?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @Text(100) job_title?: string;
  @ApiPropertyOptional({ type: 'boolean' }) @Given() @IsBoolean() is_control_person?: boolean;
  @ApiPropertyOptional({ type: 'boolean' }) @Given() @IsBoolean() is_beneficial_owner?: boolean;
  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: 100 })
  @Given()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(100)
  ownership_percentage?: number;
  @ApiPropertyOptional({ type: () => OfficerPersonDto }) @Nested(() => OfficerPersonDto) person?: OfficerPersonDto;
}

export class UpdateBusinessEntityDto extends EntityFieldsDto {
  @ApiPropertyOptional({ type: () => BusinessFieldsDto }) @Nested(() => BusinessFieldsDto) business?: BusinessFieldsDto;
  @ApiPropertyOptional({ type: () => AddressPatchDto }) @Nested(() => AddressPatchDto) address?: AddressPatchDto;
  @ApiPropertyOptional({ type: () => AddressPatchDto })
  @Nested(() => AddressPatchDto)
  operating_address?: AddressPatchDto;
  @ApiPropertyOptional({ type: () => OfficerDto, isArray: true, maxItems: 50 })
  @BlockList(() => OfficerDto, 50, { optional: true })
  business_officers?: OfficerDto[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Review context: registration_number, tax_id, annual_turnover…',
  })
  @Given()
  @IsStringMap()
  meta?: Record<string, string>;
}
