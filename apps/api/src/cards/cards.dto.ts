import { IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

import { Block } from '../http/blocks';
import { CURSOR_PATTERN, StyleBQuery } from '../http/pagination';
import { IsStringMap } from '../onboarding/validators';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const CURRENCIES = /^[A-Z]{3}$/;

export class CardholderDto {
  @IsString() @Length(1, 100) first_name: string;
  @IsString() @Length(1, 100) last_name: string;
  @Matches(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: 'email must be an email address' }) @MaxLength(254) email: string;
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phone_number must be E.164 (+ and 7-15 digits)' }) phone_number: string;
}

export class BillingDto {
  @IsString() @Length(1, 255) address_line_1: string;
  @IsOptional() @IsString() @MaxLength(255) address_line_2?: string;
  @IsString() @Length(1, 100) city: string;
  @IsString() @Length(1, 100) state: string;
  @IsString() @Length(1, 20) postal_code: string;
}

/** Shared by both creations; currency checked against ISO 4217 in the controller's mapping. */
class CreateCardBase {
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' }) account_id: string;
  @IsString() @Length(1, 100, { message: 'card_name must be 1-100 characters' }) card_name: string;
  @Block(() => CardholderDto) cardholder: CardholderDto;
  @Matches(CURRENCIES, { message: 'currency must be an ISO 4217 code' }) currency: string;
  @IsInt({ message: 'amount must be an integer of minor units' }) @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount: number;
  @Block(() => BillingDto, { optional: true }) billing?: BillingDto;
  @IsOptional() @IsStringMap() metadata?: Record<string, string>;
}

export class CreateDisposableCardDto extends CreateCardBase {
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'expiration_month must be MM' }) expiration_month: string;
  @Matches(/^\d{2}$/, { message: 'expiration_year must be YY' }) expiration_year: string;
}

/** Controls are checked field by field in the domain (names, cycles, limits, known MCC groups). */
export class CreateVirtualCardDto extends CreateCardBase {
  @IsOptional() @IsObject({ message: 'individual_controls must be an object' }) individual_controls?: Record<string, unknown>;
  @IsOptional() @IsArray({ message: 'individual_mcc_controls must be an array' }) @IsObject({ each: true, message: 'each item of individual_mcc_controls must be an object' }) individual_mcc_controls?: Record<string, unknown>[];
  @IsOptional() @IsArray({ message: 'mcc_group_controls must be an array' }) @IsObject({ each: true, message: 'each item of mcc_group_controls must be an object' }) mcc_group_controls?: Record<string, unknown>[];
  @IsOptional() @IsBoolean({ message: 'transaction_alerts must be a boolean' }) transaction_alerts?: boolean;
}

export class ListCardsQueryDto extends StyleBQuery {
  @IsOptional() @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' }) account_id?: string;
  @IsOptional() @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' }) entity_id?: string;
}

/** `cursor` (the spec's name) reads like `next_cursor`. */
export class ListCardTransactionsQueryDto extends StyleBQuery {
  @IsOptional() @Matches(CURSOR_PATTERN, { message: 'cursor must be a cursor returned by a previous page' }) cursor?: string;
}

export class ReassignCardDto {
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' }) account_id: string;
}

export class MerchantDto {
  @IsString() @Length(1, 100) name: string;
  @Matches(/^\d{4}$/, { message: 'mcc must be 4 digits' }) mcc: string;
  @IsString() @Length(1, 100) city: string;
  @IsString() @Length(1, 100) state: string;
  @IsString() @Length(1, 20) postal_code: string;
  @Matches(/^[A-Z]{2}$/, { message: 'country must be ISO 3166-1 alpha-2' }) country: string;
}

export class AuthorizationDto {
  @IsInt({ message: 'amount must be an integer of minor units' }) @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount: number;
  @Matches(CURRENCIES, { message: 'currency must be an ISO 4217 code' }) currency: string;
  @Block(() => MerchantDto) merchant: MerchantDto;
  @IsOptional() @IsBoolean({ message: 'capture must be a boolean' }) capture?: boolean;
}

export class CaptureDto {
  @IsOptional() @IsInt({ message: 'amount must be an integer of minor units' }) @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount?: number;
}

