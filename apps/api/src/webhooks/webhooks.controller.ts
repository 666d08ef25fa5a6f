import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '@app/application/command-handling';
import { CreateWebhookCommand, DeleteWebhookCommand, GetWebhookQuery, UpdateWebhookCommand } from '@app/application/webhooks';
import { GetWebhookStatsQuery } from '@app/read-models/webhooks/get-webhook-stats.query';
import { ListWebhooksQuery } from '@app/read-models/webhooks/list-webhooks.query';
import { NO_DELIVERIES, presentWebhook } from '@app/read-models/webhooks/webhook.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { CreateWebhookDto, DeleteWebhookBody, EntityQuery, ListWebhooksQuery as ListWebhooksParams, UpdateWebhookDto } from './webhooks.dto';

@Controller('entity-webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * 201 with the webhook; `secret` appears only here, and only when it was generated;
   * `signing_secret` (the Standard Webhooks `whsec_…` key) appears only here, always.
   */
  @Post()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateWebhookDto) {
    const { entity_id, ...input } = body;
    const defaults = { expires_in: input.expires_in ?? null, description: input.description ?? null, tags: input.tags ?? [], status: input.status ?? 'active' };
    const { webhook, generatedSecret, signingSecret } = await this.commands.execute(new CreateWebhookCommand(ctx, entityScope(ctx.actor, entity_id), { ...input, ...defaults }));
    const presented = presentWebhook({ ...webhook, stats: NO_DELIVERIES });
    return { ...presented, ...(generatedSecret ? { secret: generatedSecret } : {}), signing_secret: signingSecret };
  }

  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListWebhooksParams) {
    const page = await this.queries.execute(new ListWebhooksQuery(ctx.actor.organizationId, ctx.actor.mode, entityScope(ctx.actor, query.entity_id), styleAQuery(query)));
    return styleA(page, (doc) => presentWebhook(doc));
  }

  /** Settings fold from the stream (read-your-writes); statistics come from the delivery store. */
  @Get(':id')
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityQuery) {
    return this.withStats(await this.queries.execute(new GetWebhookQuery(ctx.actor, entityScope(ctx.actor, query.entity_id), id)));
  }

  @Patch(':id')
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    const { entity_id, ...changes } = body;
    return this.withStats(await this.commands.execute(new UpdateWebhookCommand(ctx, entityScope(ctx.actor, entity_id), id, changes)));
  }

  @Delete(':id')
  async delete(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityQuery, @Body() body: DeleteWebhookBody) {
    await this.commands.execute(new DeleteWebhookCommand(ctx, entityScope(ctx.actor, query.entity_id ?? body?.entity_id), id));
    return { status: 'success', message: 'Webhook deleted; its deliveries have stopped', data: { id, deleted: true } };
  }

  private async withStats(webhook: ExistingWebhook) {
    return presentWebhook({ ...webhook, stats: await this.queries.execute(new GetWebhookStatsQuery(webhook.id)) });
  }
}
