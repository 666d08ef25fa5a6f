import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { QueryBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, Matches } from 'class-validator';
import type { CommandContext } from '@app/application/command-handling';
import { GetResourceHistoryQuery } from '@app/application/audit';
import { RESOURCE_STREAMS } from '@app/application/operator/list-organization-events/public-event';
import { ListEventsQuery } from '@app/read-models/audit/list-events.query';
import { createdRange } from '../collections/date-range';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { LimitField } from '../http/pagination';

const HISTORY_ROUTES = RESOURCE_STREAMS.flatMap((r) => (r.collection ? [`${r.collection}/:id/history`] : []));
const POSITION = /^\d{1,16}$/;
const ID = /^[a-z]{2,5}_[0-9A-Za-z]{1,40}$/;
const DATE = /^(\d{1,15}|\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?)$/;

/** Style A over the event index; the cursor is the position of the last event of the previous page. */
export class ListEventsDto {
  @LimitField() limit?: number;
  @IsOptional() @Matches(POSITION, { message: 'cursor must be a next_cursor returned by a previous page' }) cursor?: string;
  @IsOptional() @Matches(/^[A-Za-z]{1,64}$/, { message: 'type must be an event type such as TransferCreated' }) type?: string;
  @IsOptional() @IsIn(RESOURCE_STREAMS.map((r) => r.type), { message: `resource_type must be one of ${RESOURCE_STREAMS.map((r) => r.type).join(', ')}` }) resource_type?: string;
  @IsOptional() @Matches(ID, { message: 'resource_id must be a resource id' }) resource_id?: string;
  @IsOptional() @Matches(ID, { message: 'entity_id must be an entity id' }) entity_id?: string;
  @IsOptional() @Matches(POSITION, { message: 'after_position must be a non-negative integer' }) after_position?: string;
  @IsOptional() @Matches(DATE, { message: 'date_from must be an ISO 8601 date or date-time, or ms' }) date_from?: string;
  @IsOptional() @Matches(DATE, { message: 'date_to must be an ISO 8601 date or date-time, or ms' }) date_to?: string;
}

/** The audit history (decisions §10): API key only, the caller's organization and mode only. */
@Controller()
@ApiKeyOnly()
export class AuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events')
  async events(@Ctx() { actor }: CommandContext, @Query() q: ListEventsDto) {
    const range = createdRange(q);
    const afterPosition = Math.max(Number(q.cursor ?? 0), Number(q.after_position ?? 0));
    const filter = { organization_id: actor.organizationId, mode: actor.mode, type: q.type, resource_type: q.resource_type, resource_id: q.resource_id, entity_id: q.entity_id };
    const page = await this.queries.execute(new ListEventsQuery(filter, { afterPosition, limit: q.limit ?? 20, createdFrom: range?.gte, createdTo: range?.lte }));
    const last = page.items[page.items.length - 1];
    return { data: page.items, meta: { pagination: { has_more: page.hasMore, next_cursor: page.hasMore && last ? String(last.position) : null } } };
  }

  /** One route per collection of the resource table (decisions §10), so a new resource is one line there. */
  @Get(HISTORY_ROUTES)
  async history(@Ctx() { actor }: CommandContext, @Req() req: Request, @Param('id') id: string) {
    const resource = RESOURCE_STREAMS.find((r) => r.collection === req.path.split('/')[1])!;
    return { data: await this.queries.execute(new GetResourceHistoryQuery(actor, resource, id)) };
  }
}
