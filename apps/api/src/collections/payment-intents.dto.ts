import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  DESCRIPTION_MAX,
  INTENT_ACTION_STATUSES,
  COLLECTION_PAYMENT_TYPES,
  PAYMENT_INTENT_STATUSES,
  REASON_MAX,
  REFERENCE_MAX,
  type CollectionPaymentType,
  type IntentActionStatus,
  type PaymentIntentStatus,
} from '@app/domain/collections';
import { Block } from '../http/blocks';
import { StyleAQuery, StyleBQuery } from '../http/pagination';
import { IntentActionDto } from './intent-action.dto';
import { IsInstant } from './date-range';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);
const CURRENCY = /^[A-Z]{3}$/;
const DATE = /^(\d{1,15}|\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2})?)?)$/;
const AMOUNT = [
  IsInt({ message: 'amount must be an integer of minor units' }),
  Min(1, { message: 'amount must be at least 1' }),
  Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` }),
];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

export class CreatePaymentIntentDto {
  @ApiProperty({ pattern: '^[A-Z]{3}$' })
  @Matches(CURRENCY, { message: 'currency must be an ISO 4217 code' })
  currency: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Smallest currency unit' })
  @apply(AMOUNT)
  amount: number;

  @ApiProperty({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The account credited on completion' })
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @ApiProperty({ minLength: 1, maxLength: REFERENCE_MAX, description: 'Unique per account (409)' })
  @IsString({ message: 'reference must be a string' })
  @Length(1, REFERENCE_MAX, { message: `reference must be 1-${REFERENCE_MAX} characters` })
  reference: string;

  @ApiPropertyOptional({ maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string;

  @ApiPropertyOptional({ type: () => IntentActionDto, description: 'Create and confirm in one call' })
  @Block(() => IntentActionDto, { optional: true })
  intent_action?: IntentActionDto;
}

export class ConfirmIntentDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'An intent in requires_action' })
  @IsString({ message: 'payment_intent_id must be a string' })
  @Length(1, 100, { message: 'payment_intent_id must be 1-100 characters' })
  payment_intent_id: string;

  @ApiProperty({ type: () => IntentActionDto })
  @Block(() => IntentActionDto)
  intent_action: IntentActionDto;
}

export class CancelIntentDto {
  @ApiProperty({ enum: ['cancel'] })
  @IsIn(['cancel'], { message: 'action must be cancel' })
  action: 'cancel';

  @ApiPropertyOptional({ minLength: 1, maxLength: REASON_MAX })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, REASON_MAX, { message: `reason must be 1-${REASON_MAX} characters` })
  reason?: string;
}

export class RefundDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Default: what is left to refund',
  })
  @IsOptional()
  @apply(AMOUNT)
  amount?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: REASON_MAX })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, REASON_MAX, { message: `reason must be 1-${REASON_MAX} characters` })
  reason?: string;
}

export class AuthenticateDto {
  @ApiProperty({ enum: ['success', 'failure'] })
  @IsIn(['success', 'failure'], { message: 'result must be success or failure' })
  result: 'success' | 'failure';
}

/** Filters both lists share (spec); dates are checked again, as instants, where they are read. */
class CollectionListQuery extends StyleBQuery {
  @ApiPropertyOptional({ minLength: 1, maxLength: REFERENCE_MAX })
  @IsOptional()
  @IsString()
  @Length(1, REFERENCE_MAX, { message: `reference must be 1-${REFERENCE_MAX} characters` })
  reference?: string;
  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$' })
  @IsOptional()
  @Matches(CURRENCY, { message: 'currency must be an ISO 4217 code' })
  currency?: string;
  @ApiPropertyOptional({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id?: string;
  @ApiPropertyOptional({
    description: 'ISO 8601 date or date-time, or Unix ms; inclusive',
    pattern: '^(\\d{1,15}|\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:\\d{2})?)?)$',
  })
  @IsOptional()
  @Matches(DATE, { message: 'date_from must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'date_from must be an ISO 8601 date or date-time, or ms' })
  date_from?: string;
  @ApiPropertyOptional({
    description: 'ISO 8601 date or date-time, or Unix ms; inclusive',
    pattern: '^(\\d{1,15}|\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:\\d{2})?)?)$',
  })
  @IsOptional()
  @Matches(DATE, { message: 'date_to must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'date_to must be an ISO 8601 date or date-time, or ms' })
  date_to?: string;
}

export class ListPaymentIntentsQueryDto extends CollectionListQuery {
  @ApiPropertyOptional({ enum: PAYMENT_INTENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_INTENT_STATUSES, { message: `status must be one of ${PAYMENT_INTENT_STATUSES.join(', ')}` })
  status?: PaymentIntentStatus;
}

export class ListIntentActionsQueryDto extends CollectionListQuery {
  @ApiPropertyOptional({ enum: INTENT_ACTION_STATUSES })
  @IsOptional()
  @IsIn(INTENT_ACTION_STATUSES, { message: `status must be one of ${INTENT_ACTION_STATUSES.join(', ')}` })
  status?: IntentActionStatus;

  @ApiPropertyOptional({ enum: COLLECTION_PAYMENT_TYPES })
  @IsOptional()
  @IsIn(COLLECTION_PAYMENT_TYPES, { message: `payment_type must be one of ${COLLECTION_PAYMENT_TYPES.join(', ')}` })
  payment_type?: CollectionPaymentType;

  @ApiPropertyOptional({ pattern: '^pi_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(new RegExp(`^pi_${ULID}$`), { message: 'payment_intent_id must be a payment intent id (pi_…)' })
  payment_intent_id?: string;
}

export class ListRefundsQueryDto extends StyleAQuery {}
