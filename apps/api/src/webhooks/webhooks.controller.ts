import { Body, Controller, Delete, Get, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import type { CommandContext } from '@app/application/command-handling';
import { WebhooksService } from '@app/application/webhooks';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { presentWebhook } from '@app/read-models/webhooks/webhook.presenter';
import { NO_DELIVERIES, type WebhookDocument } from '@app/read-models/webhooks/webhook.projection';
import { CreateWebhookDto, DeleteWebhookBody, EntityQuery, ListWebhooksQuery, UpdateWebhookDto } from './webhooks.dto';

@Controller('entity-webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  /** 201 with the webhook; `secret` appears only here, and only when it was generated. */
  @Post()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateWebhookDto) {
    const entityId = entityScope(ctx.actor, body.entity_id);
    const { entity_id: _e, ...input } = body;
    const { webhook, generatedSecret } = await this.webhooks.create(ctx, entityId, {
      ...input,
      expires_in: input.expires_in ?? null,
      description: input.description ?? null,
      tags: input.tags ?? [],
      status: input.status ?? 'active',
    });
    const presented = presentWebhook({ ...webhook, stats: NO_DELIVERIES });
    return generatedSecret ? { ...presented, secret: generatedSecret } : presented;
  }

  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListWebhooksQuery) {
    const filter = { organization_id: ctx.actor.organizationId, entity_id: entityScope(ctx.actor, query.entity_id) };
    const page = await this.readStore.find<WebhookDocument>('webhooks', styleAQuery(query, filter));
    return styleA(page, (doc) => presentWebhook(doc));
  }

  /** Settings fold from the stream (read-your-writes); statistics come from the list model. */
  @Get(':id')
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityQuery) {
    return this.withStats(await this.webhooks.get(ctx, entityScope(ctx.actor, query.entity_id), id));
  }

  @Patch(':id')
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    const { entity_id, ...changes } = body;
    return this.withStats(await this.webhooks.update(ctx, entityScope(ctx.actor, entity_id), id, changes));
  }

  @Delete(':id')
  async delete(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityQuery, @Body() body: DeleteWebhookBody) {
    await this.webhooks.delete(ctx, entityScope(ctx.actor, query.entity_id ?? body?.entity_id), id);
    return { status: 'success', message: 'Webhook deleted; its deliveries have stopped', data: { id, deleted: true } };
  }

  private async withStats(webhook: Awaited<ReturnType<WebhooksService['get']>>) {
    const doc = await this.readStore.get<WebhookDocument>('webhooks', webhook.id);
    return presentWebhook({ ...webhook, stats: doc?.stats ?? NO_DELIVERIES });
  }
}
