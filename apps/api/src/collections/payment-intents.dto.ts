import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { DESCRIPTION_MAX, INTENT_ACTION_STATUSES, COLLECTION_PAYMENT_TYPES, PAYMENT_INTENT_STATUSES, REASON_MAX, REFERENCE_MAX, type CollectionPaymentType, type IntentActionStatus, type PaymentIntentStatus } from '@app/domain/collections';
import { Block } from '../http/blocks';
import { StyleAQuery, StyleBQuery } from '../http/pagination';
import { IntentActionDto } from './intent-action.dto';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);
const CURRENCY = /^[A-Z]{3}$/;
const DATE = /^(\d{1,15}|\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2})?)?)$/;
const AMOUNT = [IsInt({ message: 'amount must be an integer of minor units' }), Min(1, { message: 'amount must be at least 1' }), Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })];
const apply = (decorators: PropertyDecorator[]): PropertyDecorator => (target, key) => decorators.forEach((d) => d(target, key));

export class CreatePaymentIntentDto {
  @Matches(CURRENCY, { message: 'currency must be an ISO 4217 code' })
  currency: string;

  @apply(AMOUNT)
  amount: number;

  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @IsString({ message: 'reference must be a string' })
  @Length(1, REFERENCE_MAX, { message: `reference must be 1-${REFERENCE_MAX} characters` })
  reference: string;

  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string;

  @Block(() => IntentActionDto, { optional: true })
  intent_action?: IntentActionDto;
}

export class ConfirmIntentDto {
  @IsString({ message: 'payment_intent_id must be a string' })
  @Length(1, 100, { message: 'payment_intent_id must be 1-100 characters' })
  payment_intent_id: string;

  @Block(() => IntentActionDto)
  intent_action: IntentActionDto;
}

export class CancelIntentDto {
  @IsIn(['cancel'], { message: 'action must be cancel' })
  action: 'cancel';

  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, REASON_MAX, { message: `reason must be 1-${REASON_MAX} characters` })
  reason?: string;
}

export class RefundDto {
  @IsOptional()
  @apply(AMOUNT)
  amount?: number;

  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, REASON_MAX, { message: `reason must be 1-${REASON_MAX} characters` })
  reason?: string;
}

export class AuthenticateDto {
  @IsIn(['success', 'failure'], { message: 'result must be success or failure' })
  result: 'success' | 'failure';
}

/** Filters both lists share (spec); dates are checked again, as instants, where they are read. */
class CollectionListQuery extends StyleBQuery {
  @IsOptional() @IsString() @Length(1, REFERENCE_MAX, { message: `reference must be 1-${REFERENCE_MAX} characters` }) reference?: string;
  @IsOptional() @Matches(CURRENCY, { message: 'currency must be an ISO 4217 code' }) currency?: string;
  @IsOptional() @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' }) account_id?: string;
  @IsOptional() @Matches(DATE, { message: 'date_from must be an ISO 8601 date or date-time, or ms' }) date_from?: string;
  @IsOptional() @Matches(DATE, { message: 'date_to must be an ISO 8601 date or date-time, or ms' }) date_to?: string;
}

export class ListPaymentIntentsQueryDto extends CollectionListQuery {
  @IsOptional()
  @IsIn(PAYMENT_INTENT_STATUSES, { message: `status must be one of ${PAYMENT_INTENT_STATUSES.join(', ')}` })
  status?: PaymentIntentStatus;
}

export class ListIntentActionsQueryDto extends CollectionListQuery {
  @IsOptional()
  @IsIn(INTENT_ACTION_STATUSES, { message: `status must be one of ${INTENT_ACTION_STATUSES.join(', ')}` })
  status?: IntentActionStatus;

  @IsOptional()
  @IsIn(COLLECTION_PAYMENT_TYPES, { message: `payment_type must be one of ${COLLECTION_PAYMENT_TYPES.join(', ')}` })
  payment_type?: CollectionPaymentType;

  @IsOptional()
  @Matches(new RegExp(`^pi_${ULID}$`), { message: 'payment_intent_id must be a payment intent id (pi_…)' })
  payment_intent_id?: string;
}

export class ListRefundsQueryDto extends StyleAQuery {}
