import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateBy } from 'class-validator';
import {
  INFLOW_RAILS,
  INFLOW_REFERENCE_MAX,
  INFLOW_SENDER_MAX,
  isSupportedCurrency,
  type InflowRail,
} from '@app/domain/accounts';

/**
 * POST /admin/accounts/{id}/inflows (decisions §11). Shape errors are 400 here; whether the inflow
 * fits the account (currency, rail for that currency, balance bound) is the decider's 422.
 * Control characters in `reference` and `sender` are refused at the edge (request-shape).
 */
export class RecordInflowDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Smallest currency unit' })
  @IsInt({ message: 'amount must be an integer of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `amount must be at most ${Number.MAX_SAFE_INTEGER}` })
  amount: number;

  @ApiProperty({ pattern: '^[A-Z]{3}$', description: 'The account’s currency' })
  @ValidateBy({
    name: 'isSupportedCurrency',
    validator: {
      validate: isSupportedCurrency,
      defaultMessage: () => 'currency must be an uppercase ISO 4217 code, USC or UST',
    },
  })
  currency: string;

  @ApiProperty({ enum: INFLOW_RAILS })
  @IsIn(INFLOW_RAILS, {
    message: `rail must be one of ${INFLOW_RAILS.join(', ')} (money between the organization's own accounts is a book transfer: POST /transfer)`,
  })
  rail: InflowRail;

  @ApiProperty({
    minLength: 1,
    maxLength: INFLOW_REFERENCE_MAX,
    description: 'The rail’s reference: unique per account (409 with the first)',
  })
  @IsString({ message: 'reference must be a string' })
  @Length(1, INFLOW_REFERENCE_MAX, { message: `reference must be 1-${INFLOW_REFERENCE_MAX} characters` })
  @Matches(/\S/, { message: 'reference must not be blank' })
  reference: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, minLength: 1, maxLength: INFLOW_SENDER_MAX })
  @IsOptional()
  @IsString({ message: 'sender must be a string' })
  @Length(1, INFLOW_SENDER_MAX, { message: `sender must be 1-${INFLOW_SENDER_MAX} characters` })
  @Matches(/\S/, { message: 'sender must not be blank' })
  sender?: string | null;
}
