import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { WEBHOOK_EXPIRE_PREVIOUS_MAX, WEBHOOK_SECRET_MAX, WEBHOOK_SECRET_MIN } from '@app/domain';
import { IsInstant } from '../collections/date-range';
import { EntityQuery } from './webhooks.dto';

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
/** As `date_from` (decisions §2): an ISO 8601 date or date-time, or ms. */
const DATE = /^(\d{1,15}|\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?)$/;
const DATE_DOC = { pattern: DATE.source, description: 'ISO 8601 date or date-time, or ms (as date_from)' };

/** Decisions §15: `entity_id` as on every webhook route, in the body. */
export class ResendDeliveryDto extends EntityQuery {
  @ApiProperty({ pattern: EVENT_ID.source, description: 'The event to send again (evt_…), one this webhook was due' })
  @IsString()
  @Matches(EVENT_ID, { message: 'event_id must be an event id (evt_…)' })
  event_id: string;
}

export class RecoverDeliveriesDto extends EntityQuery {
  @ApiProperty({
    ...DATE_DOC,
    description: 'Start of the window, inclusive: ISO 8601 date or date-time, or ms (as date_from)',
  })
  @IsString()
  @Matches(DATE, { message: 'since must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'since must be an ISO 8601 date or date-time, or ms' })
  since: string;

  @ApiPropertyOptional({
    ...DATE_DOC,
    description: 'End of the window, inclusive (a date alone covers its day); default now',
  })
  @IsOptional()
  @IsString()
  @Matches(DATE, { message: 'until must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'until must be an ISO 8601 date or date-time, or ms' })
  until?: string;
}

export class RotateWebhookSecretDto extends EntityQuery {
  @ApiPropertyOptional({
    minLength: WEBHOOK_SECRET_MIN,
    maxLength: WEBHOOK_SECRET_MAX,
    writeOnly: true,
    description: 'The new secret; generated when omitted',
  })
  @IsOptional()
  @IsString()
  @Length(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_MAX, {
    message: `secret must be ${WEBHOOK_SECRET_MIN}-${WEBHOOK_SECRET_MAX} characters`,
  })
  secret?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: WEBHOOK_EXPIRE_PREVIOUS_MAX,
    default: WEBHOOK_EXPIRE_PREVIOUS_MAX,
    description: 'Seconds the previous secret stays valid; 0 drops it at once',
  })
  @IsOptional()
  @IsInt({ message: 'expire_previous_in must be an integer of seconds' })
  @Min(0, { message: `expire_previous_in must be between 0 and ${WEBHOOK_EXPIRE_PREVIOUS_MAX}` })
  @Max(WEBHOOK_EXPIRE_PREVIOUS_MAX, {
    message: `expire_previous_in must be between 0 and ${WEBHOOK_EXPIRE_PREVIOUS_MAX}`,
  })
  expire_previous_in?: number;
}
