import { Body, Controller, Get, Inject, Post, Query } from '@nestjs/common';
import type { CommandContext } from '@app/application/command-handling';
import { EntitiesService } from '@app/application/onboarding';
import { WebhooksService } from '@app/application/webhooks';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { testSample } from './test-samples';
import { presentWebhookLog, type WebhookLogDocument } from '@app/read-models/webhooks/webhook-log.projection';
import { ListWebhookLogsQuery, WebhookTestDto } from './webhooks.dto';

@Controller('webhook-logs')
export class WebhookLogsController {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListWebhookLogsQuery) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      entity_id: entityScope(ctx.actor, query.entity_id),
      webhook_id: query.webhook_id,
      event: query.event,
      status: query.status,
    };
    const page = await this.readStore.find<WebhookLogDocument>('webhook_logs', styleAQuery(query, filter));
    return styleA(page, presentWebhookLog);
  }
}

@Controller('webhook-tests')
export class WebhookTestsController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly entities: EntitiesService,
  ) {}

  /** 201 once the test is recorded; the worker delivers it to that webhook with `test: true`. */
  @Post()
  async dispatch(@Ctx() ctx: CommandContext, @Body() body: WebhookTestDto) {
    const { entity_id, ...input } = body;
    const eventId = await this.webhooks.requestTest(ctx, entityScope(ctx.actor, entity_id), input, testSample(this.entities));
    return { status: 'success', message: `Test event ${input.event_group}.${input.event_name} dispatched`, data: { event_id: eventId } };
  }
}
