import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { RequestWebhookTestCommand } from '@app/application/webhooks';
import { ListWebhookLogsQuery } from '@app/read-models/webhooks/list-webhook-logs.query';
import { presentWebhookLog } from '@app/read-models/webhooks/webhook-log.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { ListWebhookLogsQuery as ListWebhookLogsParams, WebhookTestDto } from './webhooks.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

@ApiTags('Webhooks')
@Controller('webhook-logs')
export class WebhookLogsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiRoute({
    id: 'listWebhookLogs',
    summary: 'List webhook delivery attempts',
    description: 'Every attempt, with the request sent (secrets read ***) and the response received.',
    ok: { status: 200, schema: styleAList(ref('WebhookLog')), description: 'Attempts, newest first' },
    errors: {
      400: 'entity_id missing with an API key, or a bad filter (validation_error)',
      403: 'Another entity’s (forbidden)',
    },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListWebhookLogsParams) {
    const filter = {
      organizationId: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      entityId: entityScope(ctx.actor, query.entity_id),
      webhookId: query.webhook_id,
      event: query.event,
      status: query.status,
    };
    return styleA(await this.queries.execute(new ListWebhookLogsQuery(filter, styleAQuery(query))), presentWebhookLog);
  }
}

@ApiTags('Webhooks')
@Controller('webhook-tests')
export class WebhookTestsController {
  constructor(private readonly commands: CommandBus) {}

  /** 201 once the test is recorded; the worker delivers it to that webhook with `test: true`. */
  @Post()
  @ApiRoute({
    id: 'createWebhookTest',
    summary: 'Send a test event to a webhook',
    description: 'Delivered like any event, with "test": true in its body.',
    ok: { status: 201, schema: 'WebhookTestDispatched', description: 'Dispatched' },
    errors: {
      400: 'A group and name that are not an event (invalid_event)',
      403: 'Another entity’s (forbidden)',
      404: 'No such webhook (webhook_not_found)',
      422: 'The webhook is inactive (webhook_inactive)',
    },
  })
  async dispatch(@Ctx() ctx: CommandContext, @Body() body: WebhookTestDto) {
    const { entity_id, ...input } = body;
    const eventId = await this.commands.execute(
      new RequestWebhookTestCommand(ctx, entityScope(ctx.actor, entity_id), input),
    );
    return {
      status: 'success',
      message: `Test event ${input.event_group}.${input.event_name} dispatched`,
      data: { event_id: eventId },
    };
  }
}
