import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  ADVANCE_TARGETS,
  CANCEL_REASON_MAX,
  DESCRIPTION_MAX,
  OPERATOR_ADVANCE_TARGETS,
  PAYMENT_TYPES,
  STATUS_REASON_PATTERN,
  TRANSFER_STATUSES,
  UNIQUE_REFERENCE_MAX,
  type AdvanceTarget,
  type PaymentType,
  type TransferStatus,
} from '@app/domain/transfers';
import { StyleAQuery } from '../http/pagination';
import { InvalidInputAnswers422 } from '../http/validation.pipe';
import { IsStringMap } from '../onboarding/validators';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const ACCOUNT_ID = new RegExp(`^acc_${ULID}$`);

/** POST /transfer and POST /transfers (both take every payment type, decisions §6). Refusals answer 422. */
@InvalidInputAnswers422()
export class CreateTransferDto {
  @ApiProperty({
    pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'The account debited; it needs the amount and fee available',
  })
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    description: 'Payment details of a counterparty; their method must be payment_type',
  })
  @IsString({ message: 'payment_detail_id must be a string' })
  @Length(1, 100, { message: 'payment_detail_id must be 1-100 characters' })
  payment_detail_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Smallest currency unit' })
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })
  amount: number;

  @ApiProperty({ enum: PAYMENT_TYPES })
  @IsIn(PAYMENT_TYPES, { message: `payment_type must be one of ${PAYMENT_TYPES.join(', ')}` })
  payment_type: PaymentType;

  @ApiPropertyOptional({
    maxLength: DESCRIPTION_MAX,
    description: 'Passed to the recipient’s statement where supported',
  })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string;

  @ApiProperty({
    minLength: 1,
    maxLength: UNIQUE_REFERENCE_MAX,
    description: 'Unique per account: a repeat answers 409 with the original transfer',
  })
  @IsString({ message: 'unique_reference must be a string' })
  @Length(1, UNIQUE_REFERENCE_MAX, { message: `unique_reference must be 1-${UNIQUE_REFERENCE_MAX} characters` })
  unique_reference: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;
}

/** `entity_id` is required with an API key (decisions §6), checked by entityScope for a 400 naming it. */
export class TransferScopeQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;
}

export class ListTransfersQuery extends StyleAQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, { message: 'entity_id must be an entity id (ent_…)' })
  entity_id?: string;

  @ApiPropertyOptional({ pattern: '^acc_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(ACCOUNT_ID, { message: 'account_id must be an account id (acc_…)' })
  account_id?: string;

  @ApiPropertyOptional({ enum: TRANSFER_STATUSES })
  @IsOptional()
  @IsIn(TRANSFER_STATUSES, { message: `status must be one of ${TRANSFER_STATUSES.join(', ')}` })
  status?: TransferStatus;
}

export class AdvanceTransferDto {
  @ApiProperty({ enum: ADVANCE_TARGETS })
  @IsIn(ADVANCE_TARGETS, { message: `to must be one of ${ADVANCE_TARGETS.join(', ')}` })
  to: AdvanceTarget;

  @StatusReason()
  status_reason?: string;
}

/** The operator's move (decisions §11, §14): the sandbox's targets and `cancelled`. */
export class OperatorAdvanceTransferDto {
  @ApiProperty({ enum: OPERATOR_ADVANCE_TARGETS })
  @IsIn(OPERATOR_ADVANCE_TARGETS, { message: `to must be one of ${OPERATOR_ADVANCE_TARGETS.join(', ')}` })
  to: AdvanceTarget;

  @StatusReason()
  status_reason?: string;
}

/** The operator's and the sandbox's reason: a code, unlike a customer's cancel reason. */
function StatusReason(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'snake_case, e.g. invalid_account_details' }),
    IsOptional(),
    Matches(STATUS_REASON_PATTERN, { message: 'status_reason must be snake_case, at most 64 characters' }),
  );
}

/** POST /transfers/{id}/cancel (decisions §14): `entity_id` as for GET, a free-text reason. */
export class CancelTransferDto extends TransferScopeQuery {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: CANCEL_REASON_MAX,
    description: 'Shown as status_reason (default cancelled_by_request)',
  })
  @IsOptional()
  @IsString({ message: 'reason must be a string' })
  @Length(1, CANCEL_REASON_MAX, { message: `reason must be 1-${CANCEL_REASON_MAX} characters` })
  reason?: string;
}
