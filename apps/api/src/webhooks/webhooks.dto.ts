import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  WEBHOOK_EVENT_CATALOGUE,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_SECRET_MAX,
  WEBHOOK_SECRET_MIN,
  WEBHOOK_TAGS_MAX,
  WEBHOOK_URL_MAX,
} from '@app/domain';
import { StyleAQuery } from '../http/pagination';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
const WEBHOOK_ID = new RegExp(`^whk_${ULID}$`);
const ENTITY_MESSAGE = { message: 'entity_id must be an entity id (ent_…)' };
const SECRET_MESSAGE = { message: `secret must be ${WEBHOOK_SECRET_MIN}-${WEBHOOK_SECRET_MAX} characters` };

/** Shapes only; the rules (https, catalogue, ranges, where the host points) live in the domain and service. */
class WebhookFields {
  @ApiPropertyOptional({
    pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'Required with an API key; inferred from an entity token',
  })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'Seconds until the webhook expires (counted from creation or update); null: never',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt({ message: 'expires_in must be an integer of seconds, or null' })
  expires_in?: number | null;

  @ApiPropertyOptional({
    minLength: WEBHOOK_SECRET_MIN,
    maxLength: WEBHOOK_SECRET_MAX,
    writeOnly: true,
    description: 'Write-only; generated (and returned once) when omitted',
  })
  @IsOptional()
  @IsString()
  @Length(WEBHOOK_SECRET_MIN, WEBHOOK_SECRET_MAX, SECRET_MESSAGE)
  secret?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: WEBHOOK_DESCRIPTION_MAX })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(WEBHOOK_DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ type: 'string', isArray: true, maxItems: WEBHOOK_TAGS_MAX })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_TAGS_MAX)
  @IsString({ each: true, message: 'each tag must be a string' })
  tags?: string[];

  @ApiPropertyOptional({ enum: ['active', 'inactive'], default: 'active' })
  @IsOptional()
  @IsIn(['active', 'inactive'], { message: 'status must be "active" or "inactive"' })
  status?: 'active' | 'inactive';
}

export class CreateWebhookDto extends WebhookFields {
  @ApiProperty({
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX,
    description: 'https; hosts resolving to private networks are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS',
  })
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX)
  url: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '{"all": true} or a map of event group to names, e.g. {"outflows": ["created", "completed"]}',
  })
  @IsObject({ message: 'enabled_events must be {"all": true} or a map of event group to event names' })
  enabled_events: Record<string, unknown>;
}

export class UpdateWebhookDto extends WebhookFields {
  @ApiPropertyOptional({ format: 'uri', maxLength: WEBHOOK_URL_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX)
  url?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replaces the whole configuration' })
  @IsOptional()
  @IsObject({ message: 'enabled_events must be {"all": true} or a map of event group to event names' })
  enabled_events?: Record<string, unknown>;
}

export class EntityQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

/** DELETE takes `entity_id` in the query or the body. */
export class DeleteWebhookBody extends EntityQuery {}

export class ListWebhooksQuery extends StyleAQuery {
  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}

export class ListWebhookLogsQuery extends ListWebhooksQuery {
  @ApiPropertyOptional({ pattern: '^whk_[0-9A-HJKMNP-TV-Z]{26}$' })
  @IsOptional()
  @Matches(WEBHOOK_ID, { message: 'webhook_id must be a webhook id (whk_…)' })
  webhook_id?: string;

  @ApiPropertyOptional({ pattern: '^[a-z_]+\\.[a-z_]+$', description: 'e.g. outflows.completed' })
  @IsOptional()
  @Matches(/^[a-z_]+\.[a-z_]+$/, { message: 'event must be an event name such as outflows.completed' })
  event?: string;

  @ApiPropertyOptional({ enum: ['succeeded', 'failed'] })
  @IsOptional()
  @IsIn(['succeeded', 'failed'], { message: 'status must be "succeeded" or "failed"' })
  status?: 'succeeded' | 'failed';
}

export class WebhookTestDto {
  @ApiProperty({ pattern: '^whk_[0-9A-HJKMNP-TV-Z]{26}$' })
  @Matches(WEBHOOK_ID, { message: 'webhook_id must be a webhook id (whk_…)' })
  webhook_id: string;

  @ApiProperty({ enum: Object.keys(WEBHOOK_EVENT_CATALOGUE) })
  @IsString()
  event_group: string;

  @ApiProperty({ description: 'A name of the group (created, updated, completed…)' })
  @IsString()
  event_name: string;

  @ApiPropertyOptional({ pattern: '^ent_[0-9A-HJKMNP-TV-Z]{26}$', description: 'Required with an API key' })
  @IsOptional()
  @Matches(ENTITY_ID, ENTITY_MESSAGE)
  entity_id?: string;
}
