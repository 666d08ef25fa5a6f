import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { QueryBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, Matches } from 'class-validator';
import type { CommandContext } from '@app/application/command-handling';
import { RESOURCE_STREAMS } from '@app/application/admin/list-organization-events/public-event';
import { ListEventsQuery, type EventsPage } from '@app/read-models/audit/list-events.query';
import { GetResourceHistoryQuery } from '@app/application/audit';
import { createdRange, IsInstant } from '../collections/date-range';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { LimitField } from '../http/pagination';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

const HISTORY_ROUTES = RESOURCE_STREAMS.flatMap((r) => (r.collection ? [`${r.collection}/:id/history`] : []));
const POSITION = /^\d{1,16}$/;
const ID = /^[a-z]{2,5}_[0-9A-Za-z]{1,64}$/;
const DATE = /^(\d{1,15}|\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?)$/;

/** Style A over the event index; the cursor is the position of the last event of the previous page. */
export class ListEventsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 }) @LimitField() limit?: number;
  @ApiPropertyOptional({ pattern: '^\\d{1,16}$', description: 'A log position: next_cursor of the previous page' })
  @IsOptional()
  @Matches(POSITION, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z]{1,64}$', description: 'A domain event type, e.g. TransferCreated' })
  @IsOptional()
  @Matches(/^[A-Za-z]{1,64}$/, { message: 'type must be an event type such as TransferCreated' })
  type?: string;
  @ApiPropertyOptional({ enum: RESOURCE_STREAMS.map((r) => r.type) })
  @IsOptional()
  @IsIn(RESOURCE_STREAMS.map((r) => r.type), {
    message: `resource_type must be one of ${RESOURCE_STREAMS.map((r) => r.type).join(', ')}`,
  })
  resource_type?: string;
  @ApiPropertyOptional({ pattern: '^[a-z]{2,5}_[0-9A-Za-z]{1,64}$' })
  @IsOptional()
  @Matches(ID, { message: 'resource_id must be a resource id' })
  resource_id?: string;
  @ApiPropertyOptional({ pattern: '^[a-z]{2,5}_[0-9A-Za-z]{1,64}$' })
  @IsOptional()
  @Matches(ID, { message: 'entity_id must be an entity id' })
  entity_id?: string;
  @ApiPropertyOptional({ pattern: '^\\d{1,16}$', description: 'Events after this log position' })
  @IsOptional()
  @Matches(POSITION, { message: 'after_position must be a non-negative integer' })
  after_position?: string;
  @ApiPropertyOptional({ description: 'ISO 8601 date or date-time, or Unix ms; inclusive' })
  @IsOptional()
  @Matches(DATE, { message: 'date_from must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'date_from must be an ISO 8601 date or date-time, or ms' })
  date_from?: string;
  @ApiPropertyOptional({ description: 'ISO 8601 date or date-time, or Unix ms; inclusive' })
  @IsOptional()
  @Matches(DATE, { message: 'date_to must be an ISO 8601 date or date-time, or ms' })
  @IsInstant({ message: 'date_to must be an ISO 8601 date or date-time, or ms' })
  date_to?: string;
}

/**
 * A resource's history a page at a time, oldest first (docs/decisions/audit.md, "History pages"):
 * up to 100 events by default, so a short history is still one answer; the cursor is the revision
 * of the last event of the previous page (its place in the resource's stream).
 */
export class HistoryPageDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 100 }) @LimitField() limit?: number;
  @ApiPropertyOptional({ pattern: '^\\d{1,16}$', description: 'A revision: next_cursor of the previous page' })
  @IsOptional()
  @Matches(POSITION, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

/** The audit history (decisions §10): API key only, the caller's organization and mode only. */
@ApiTags('Audit')
@Controller()
@ApiKeyOnly()
export class AuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events')
  @ApiRoute({
    id: 'listEvents',
    summary: 'The event history',
    description: 'The caller’s organization and mode, oldest first (ascending position).',
    ok: {
      status: 200,
      schema: styleAList(ref('Event'), 'A page of events, oldest first'),
      description: 'Events, oldest first',
    },
    errors: { 400: 'A bad filter, date or cursor (validation_error)' },
    readModel: true,
  })
  async events(@Ctx() { actor }: CommandContext, @Query() q: ListEventsDto) {
    const range = createdRange(q);
    const afterPosition = Math.max(Number(q.cursor ?? 0), Number(q.after_position ?? 0));
    const filter = {
      organization_id: actor.organizationId,
      mode: actor.mode,
      type: q.type,
      resource_type: q.resource_type,
      resource_id: q.resource_id,
      entity_id: q.entity_id,
    };
    return eventsPage(
      await this.queries.execute(
        new ListEventsQuery(filter, {
          afterPosition,
          limit: q.limit ?? 20,
          createdFrom: range?.gte,
          createdTo: range?.lte,
        }),
      ),
    );
  }

  /** One route per collection of the resource table (decisions §10), so a new resource is one line there. */
  @Get(HISTORY_ROUTES)
  @ApiRoute({
    id: 'getHistory',
    summary: 'A resource’s history',
    description:
      'The resource’s events, oldest first, with its hash chain: a page at a time (limit, default 100, and cursor).',
    ok: { status: 200, schema: 'EventHistory', description: 'A page of the events, oldest first' },
    errors: {
      400: 'A bad limit or cursor (validation_error)',
      404: 'No such resource in the caller’s organization and mode (not_found)',
    },
    readModel: true,
  })
  async history(
    @Ctx() { actor }: CommandContext,
    @Req() req: Request,
    @Param('id') id: string,
    @Query() q: HistoryPageDto,
  ) {
    const resource = RESOURCE_STREAMS.find((r) => r.collection === req.path.split('/')[1])!;
    const afterRevision = q.cursor === undefined ? -1 : Number(q.cursor);
    return eventsPage(
      await this.queries.execute(
        new GetResourceHistoryQuery(actor, resource, id, { afterRevision, limit: q.limit ?? 100 }),
      ),
      'revision',
    );
  }
}

/** Style A's envelope over events oldest first: the next page starts after the last event's position (the log) or revision (a stream). */
function eventsPage(page: EventsPage, cursor: 'position' | 'revision' = 'position') {
  const last = page.items[page.items.length - 1];
  return {
    data: page.items,
    meta: { pagination: { has_more: page.hasMore, next_cursor: page.hasMore && last ? String(last[cursor]) : null } },
  };
}
