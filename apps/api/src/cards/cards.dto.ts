import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { Block } from '../http/blocks';
import { CURSOR_PATTERN, StyleBQuery } from '../http/pagination';
import { IsStringMap } from '../onboarding/validators';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const CURRENCIES = /^[A-Z]{3}$/;

export class CardholderDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) first_name: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) last_name: string;
  @ApiProperty({ format: 'email', maxLength: 254 })
  @Matches(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;
  @ApiProperty({ pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164' })
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'phone_number must be E.164 (+ and 7-15 digits)' })
  phone_number: string;
}

export class BillingDto {
  @ApiProperty({ minLength: 1, maxLength: 255 }) @IsString() @Length(1, 255) address_line_1: string;
  @ApiPropertyOptional({ minLength: 0, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  address_line_2?: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) city: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) state: string;
  @ApiProperty({ minLength: 1, maxLength: 20 }) @IsString() @Length(1, 20) postal_code: string;
}

/** Shared by both creations; currency checked against ISO 4217 in the controller's mapping. */
class CreateCardBase {
  @ApiProperty({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The account the card spends from' })
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100, { message: 'card_name must be 1-100 characters' })
  card_name: string;
  @ApiProperty({ type: () => CardholderDto }) @Block(() => CardholderDto) cardholder: CardholderDto;
  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })
  @Matches(CURRENCIES, { message: 'currency must be an ISO 4217 code' })
  currency: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'The spend limit: per billing cycle, or for life on a disposable card',
  })
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amount: number;
  @ApiPropertyOptional({ type: () => BillingDto }) @Block(() => BillingDto, { optional: true }) billing?: BillingDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;
  @ApiPropertyOptional({
    enum: ['approve', 'decline'],
    default: 'decline',
    description: 'Decisions §16: what decides when the authorization endpoint gives no valid answer in time',
  })
  @IsOptional()
  @IsIn(['approve', 'decline'], { message: 'authorization_fallback must be approve or decline' })
  authorization_fallback?: 'approve' | 'decline';
}

export class CreateDisposableCardDto extends CreateCardBase {
  @ApiProperty({ pattern: '^(0[1-9]|1[0-2])$', description: 'MM' })
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'expiration_month must be MM' })
  expiration_month: string;
  @ApiProperty({ pattern: '^\\d{2}$', description: 'YY' })
  @Matches(/^\d{2}$/, { message: 'expiration_year must be YY' })
  expiration_year: string;
}

/** Controls are checked field by field in the domain (names, cycles, limits, known MCC groups). */
export class CreateVirtualCardDto extends CreateCardBase {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'billing_cycle (Daily, Weekly, Monthly, Yearly), billing_cycle_day, cycle_transaction_count, daily_amount_limit, daily_transaction_count, transaction_amount_limit',
  })
  @IsOptional()
  @IsObject({ message: 'individual_controls must be an object' })
  individual_controls?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description:
      'Entries {mcc, open, cumulative_amount_limit, cycle_transaction_count, daily_amount_limit, daily_transaction_count, transaction_amount_limit}',
  })
  @IsOptional()
  @IsArray({ message: 'individual_mcc_controls must be an array' })
  @IsObject({ each: true, message: 'each item of individual_mcc_controls must be an object' })
  individual_mcc_controls?: Record<string, unknown>[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: 'Entries {group_name, open, and the limits of an MCC entry}',
  })
  @IsOptional()
  @IsArray({ message: 'mcc_group_controls must be an array' })
  @IsObject({ each: true, message: 'each item of mcc_group_controls must be an object' })
  mcc_group_controls?: Record<string, unknown>[];
  @ApiPropertyOptional({ type: 'boolean', default: false })
  @IsOptional()
  @IsBoolean({ message: 'transaction_alerts must be a boolean' })
  transaction_alerts?: boolean;
}

export class ListCardsQueryDto extends StyleBQuery {
  @ApiPropertyOptional({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Omitted: every card of the entity' })
  @IsOptional()
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id?: string;
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required with an API key when account_id is omitted',
  })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}

/** `cursor` (the spec's name) reads like `next_cursor`. */
export class ListCardTransactionsQueryDto extends StyleBQuery {
  @ApiPropertyOptional({ pattern: '^[a-z]{2,5}_[0-9A-HJKMNP-TV-Z]{26}$', description: 'As next_cursor' })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'cursor must be a cursor returned by a previous page' })
  cursor?: string;
}

export class ReassignCardDto {
  @ApiProperty({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The target account' })
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;
}

export class MerchantDto {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) name: string;
  @ApiProperty({ pattern: '^\\d{4}$' }) @Matches(/^\d{4}$/, { message: 'mcc must be 4 digits' }) mcc: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) city: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) @IsString() @Length(1, 100) state: string;
  @ApiProperty({ minLength: 1, maxLength: 20 }) @IsString() @Length(1, 20) postal_code: string;
  @ApiProperty({ pattern: '^[A-Z]{2}$' })
  @Matches(/^[A-Z]{2}$/, { message: 'country must be ISO 3166-1 alpha-2' })
  country: string;
}

export class AuthorizationDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'In the card’s currency' })
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amount: number;
  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' })
  @Matches(CURRENCIES, { message: 'currency must be an ISO 4217 code' })
  currency: string;
  @ApiProperty({ type: () => MerchantDto }) @Block(() => MerchantDto) merchant: MerchantDto;
  @ApiPropertyOptional({
    type: 'boolean',
    default: true,
    description: 'false: a held (pending) authorization, captured or reversed later',
  })
  @IsOptional()
  @IsBoolean({ message: 'capture must be a boolean' })
  capture?: boolean;
}

export class CaptureDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'At most the held amount; default all of it',
  })
  @IsOptional()
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amount?: number;
}
