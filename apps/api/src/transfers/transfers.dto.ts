import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ADVANCE_TARGETS, DESCRIPTION_MAX, PAYMENT_TYPES, STATUS_REASON_PATTERN, TRANSFER_STATUSES, UNIQUE_REFERENCE_MAX, type AdvanceTarget, type PaymentType, type TransferStatus } from '@app/domain/transfers';
import { StyleAQuery } from '../http/pagination';
import { IsStringMap } from '../onboarding/validators';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);

/** POST /transfer and POST /transfers (both take every payment type, decisions §6). Refusals answer 422. */
export class CreateTransferDto {
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @IsString({ message: 'payment_detail_id must be a string' })
  @Length(1, 100, { message: 'payment_detail_id must be 1-100 characters' })
  payment_detail_id: string;

  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })
  amount: number;

  @IsIn(PAYMENT_TYPES, { message: `payment_type must be one of ${PAYMENT_TYPES.join(', ')}` })
  payment_type: PaymentType;

  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string;

  @IsString({ message: 'unique_reference must be a string' })
  @Length(1, UNIQUE_REFERENCE_MAX, { message: `unique_reference must be 1-${UNIQUE_REFERENCE_MAX} characters` })
  unique_reference: string;

  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;
}

/** `entity_id` is required with an API key (decisions §6), checked by entityScope for a 400 naming it. */
export class TransferScopeQuery {
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}

export class ListTransfersQuery extends StyleAQuery {
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @IsOptional()
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id?: string;

  @IsOptional()
  @IsIn(TRANSFER_STATUSES, { message: `status must be one of ${TRANSFER_STATUSES.join(', ')}` })
  status?: TransferStatus;
}

export class AdvanceTransferDto {
  @IsIn(ADVANCE_TARGETS, { message: `to must be one of ${ADVANCE_TARGETS.join(', ')}` })
  to: AdvanceTarget;

  @IsOptional()
  @Matches(STATUS_REASON_PATTERN, { message: 'status_reason must be snake_case, at most 64 characters' })
  status_reason?: string;
}
