import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsOptional, Matches } from 'class-validator';
import type { CommandContext } from '@app/application/command-handling';
import { ReviewEntityCommand } from '@app/application/onboarding';
import { ListOrganizationEventsQuery, OperatorActorQuery, type OperatedResource } from '@app/application/admin';
import { AdvanceTransferCommand } from '@app/application/transfers';
import { presentEntity } from '@app/read-models/onboarding/entity.presenter';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import { Public } from '../http/auth/auth.decorators';
import { LimitField } from '../http/pagination';
import { SandboxReviewDto } from '../onboarding/onboarding.controller';
import { OperatorAdvanceTransferDto } from '../transfers/transfers.dto';
import { OperatorGuard } from './operator.guard';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

/** Style A over the log: the cursor is a log position (`next_cursor` of the previous page). */
export class OrganizationEventsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @LimitField()
  limit?: number;

  @ApiPropertyOptional({ pattern: '^\\d{1,15}$', description: 'A log position: next_cursor of the previous page' })
  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

/**
 * Organization ids are `org_` + a ULID (BootstrapService: each seeded or generated key is its own
 * organization); GET /api-keys/current shows the caller's as `organization_id`. Anything else is
 * refused (400 naming `id`, the path parameter of decisions §11) before the log is scanned.
 */
export const ORGANIZATION_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/;

export class OrganizationParams {
  @ApiProperty({ pattern: '^org_[0-9A-HJKMNP-TV-Z]{26}$', description: 'The organization_id of GET /api-keys/current' })
  @Matches(ORGANIZATION_ID, {
    message: 'id must be an organization id (org_…): the organization_id of GET /api-keys/current',
  })
  id!: string;
}

/**
 * The operator API (decisions §11): live resources have no simulator, so an operator moves them,
 * in any mode, through the same commands as the sandbox endpoints; the events record `operator`.
 */
@ApiTags('Operator')
@Controller('admin')
@Public()
@UseGuards(OperatorGuard)
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('entities/:id/review')
  @HttpCode(200)
  @ApiRoute({
    id: 'operatorReviewEntity',
    summary: 'Operator: decide a submitted entity',
    description: 'As the sandbox review, in any mode; recorded with actor operator.',
    ok: { status: 200, schema: 'Entity', description: 'The decided entity' },
    errors: { 409: 'Not under review (entity_not_under_review)' },
  })
  async review(@Headers('x-request-id') requestId: string, @Param('id') id: string, @Body() body: SandboxReviewDto) {
    const context = await this.operatorContext('entity', id, requestId);
    return presentEntity(
      await this.commands.execute(
        new ReviewEntityCommand(context, { entityId: id, decision: body.decision, reason: body.reason ?? null }),
      ),
    );
  }

  @Post('transfers/:id/advance')
  @HttpCode(200)
  @ApiRoute({
    id: 'operatorAdvanceTransfer',
    summary: 'Operator: move a transfer',
    description:
      'As the sandbox advance, in any mode; also to cancelled from pending (its hold released, the fee not taken).',
    ok: { status: 200, schema: 'Transfer', description: 'The transfer after the move' },
    errors: {
      409: 'A move the lifecycle does not allow (invalid_transition, book_transfer_not_reversible, book_transfer_not_cancellable)',
    },
  })
  async advance(
    @Headers('x-request-id') requestId: string,
    @Param('id') id: string,
    @Body() body: OperatorAdvanceTransferDto,
  ) {
    const context = await this.operatorContext('transfer', id, requestId);
    return presentTransfer(
      await this.commands.execute(new AdvanceTransferCommand(context, id, body.to, body.status_reason ?? null)),
    );
  }

  @Get('organizations/:id/events')
  @ApiRoute({
    id: 'operatorListOrganizationEvents',
    summary: 'Operator: an organization’s event history',
    description: 'Every mode, oldest first; the cursor is a log position.',
    ok: {
      status: 200,
      schema: styleAList(ref('Event'), 'A page of events, oldest first'),
      description: 'Events, oldest first',
    },
    errors: { 400: 'Not an organization id, or a bad limit or cursor (validation_error)' },
  })
  async events(@Param() params: OrganizationParams, @Query() query: OrganizationEventsDto) {
    const page = await this.queries.execute(
      new ListOrganizationEventsQuery(params.id, { after: Number(query.cursor ?? 0), limit: query.limit ?? 20 }),
    );
    return {
      data: page.items,
      meta: { pagination: { has_more: page.hasMore, next_cursor: page.hasMore ? String(page.nextPosition) : null } },
    };
  }

  private async operatorContext(resource: OperatedResource, id: string, requestId: string): Promise<CommandContext> {
    const actor = await this.queries.execute(new OperatorActorQuery(resource, id));
    return { actor, correlationId: requestId, causationId: requestId };
  }
}
