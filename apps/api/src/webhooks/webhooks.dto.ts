import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_MAX, WEBHOOK_SECRET_MIN, WEBHOOK_TAGS_MAX, WEBHOOK_URL_MAX } from '@app/domain';
import { StyleAQuery } from '../http/pagination';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const WEBHOOK_ID = new RegExp(`^whk_${ULID}$`);
const ENTITY_MESSAGE = { message: 'entity_id must be an entity id (ent_…)' };
const SECRET_MESSAGE = { message: `secret must be ${WEBHOOK_SECRET_MIN}-${WEBHOOK_SECRET_MAX} characters` };

/** Shapes only; the rules (https, catalogue, ranges, where the host points) live in the domain and service. */
class WebhookFields {
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt({ message: 'expires_in must be an integer of seconds, or null' })
  expires_in?: number | null;

  @IsOptional()
  @IsString()
  @Length(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_MAX, SECRET_MESSAGE)
  secret?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_MAX)
  description?: string | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_TAGS_MAX)
  @IsString({ each: true, message: 'each tag must be a string' })
  tags?: string[];

  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'status must be "active" or "inactive"' })
  status?: 'active' | 'inactive';
}

export class CreateWebhookDto extends WebhookFields {
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX)
  url: string;

  @IsObject({ message: 'enabled_events must be {"all": true} or a map of event group to event names' })
  enabled_events: Record<string, unknown>;
}

export class UpdateWebhookDto extends WebhookFields {
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX)
  url?: string;

  @IsOptional()
  @IsObject({ message: 'enabled_events must be {"all": true} or a map of event group to event names' })
  enabled_events?: Record<string, unknown>;
}

export class EntityQuery {
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

/** DELETE takes `entity_id` in the query or the body. */
export class DeleteWebhookBody extends EntityQuery {}

export class ListWebhooksQuery extends StyleAQuery {
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

export class ListWebhookLogsQuery extends ListWebhooksQuery {
  @IsOptional()
  @Matches(WEBHOOK_ID, { message: 'webhook_id must be a webhook id (whk_…)' })
  webhook_id?: string;

  @IsOptional()
  @Matches(/^[a-z_]+\.[a-z_]+$/, { message: 'event must be an event name such as outflows.completed' })
  event?: string;

  @IsOptional()
  @IsIn(['succeeded', 'failed'], { message: 'status must be "succeeded" or "failed"' })
  status?: 'succeeded' | 'failed';
}

export class WebhookTestDto {
  @Matches(WEBHOOK_ID, { message: 'webhook_id must be a webhook id (whk_…)' })
  webhook_id: string;

  @IsString()
  event_group: string;

  @IsString()
  event_name: string;

  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}
