import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ExistingWebhook } from '@app/domain';
import type { CommandContext } from '@app/application/command-handling';
import {
  CreateWebhookCommand,
  DeleteWebhookCommand,
  GetWebhookQuery,
  UpdateWebhookCommand,
} from '@app/application/webhooks';
import { GetWebhookStatsQuery } from '@app/read-models/webhooks/get-webhook-stats.query';
import { ListWebhooksQuery } from '@app/read-models/webhooks/list-webhooks.query';
import { NO_DELIVERIES, presentWebhook } from '@app/read-models/webhooks/webhook.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import {
  CreateWebhookDto,
  DeleteWebhookBody,
  EntityQuery,
  ListWebhooksQuery as ListWebhooksParams,
  UpdateWebhookDto,
} from './webhooks.dto';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

@ApiTags('Webhooks')
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
  @ApiRoute({
    id: 'createWebhook',
    summary: 'Create a webhook',
    description: 'Deliveries are signed as Standard Webhooks: verify them with signing_secret (returned once, here).',
    ok: {
      status: 201,
      schema: 'WebhookCreated',
      description: 'The webhook, with signing_secret (and secret, when generated)',
    },
    errors: {
      400: 'Not https, a host on a private network, no event enabled or an unknown event (validation_error, invalid_event)',
      403: 'Another entity, with an entity token (forbidden)',
      404: 'No such entity (entity_not_found)',
      409: 'The entity already has an active webhook subscribed to card_authorizations.request (authorization_endpoint_exists, decisions §16)',
    },
  })
  async create(@Ctx() ctx: CommandContext, @Body() body: CreateWebhookDto) {
    const { entity_id, ...input } = body;
    const defaults = {
      expires_in: input.expires_in ?? null,
      description: input.description ?? null,
      tags: input.tags ?? [],
      status: input.status ?? 'active',
    };
    const { webhook, generatedSecret, signingSecret } = await this.commands.execute(
      new CreateWebhookCommand(ctx, entityScope(ctx.actor, entity_id), { ...input, ...defaults }),
    );
    const presented = presentWebhook({ ...webhook, stats: NO_DELIVERIES });
    return { ...presented, ...(generatedSecret ? { secret: generatedSecret } : {}), signing_secret: signingSecret };
  }

  @Get()
  @ApiRoute({
    id: 'listWebhooks',
    summary: 'List webhooks of an entity',
    ok: {
      status: 200,
      schema: styleAList(ref('Webhook')),
      description: 'Webhooks with their delivery statistics, newest first',
    },
    errors: { 400: 'entity_id missing with an API key (validation_error)', 403: 'Another entity’s (forbidden)' },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListWebhooksParams) {
    const page = await this.queries.execute(
      new ListWebhooksQuery(
        ctx.actor.organizationId,
        ctx.actor.mode,
        entityScope(ctx.actor, query.entity_id),
        styleAQuery(query),
      ),
    );
    return styleA(page, (doc) => presentWebhook(doc));
  }

  /** Settings fold from the stream (read-your-writes); statistics come from the delivery store. */
  @Get(':id')
  @ApiRoute({
    id: 'getWebhook',
    summary: 'Retrieve a webhook',
    ok: { status: 200, schema: 'Webhook', description: 'The webhook with its delivery statistics' },
    errors: {
      400: 'entity_id missing with an API key (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such webhook of the entity (webhook_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: EntityQuery) {
    return this.withStats(
      await this.queries.execute(new GetWebhookQuery(ctx.actor, entityScope(ctx.actor, query.entity_id), id)),
    );
  }

  @Patch(':id')
  @ApiRoute({
    id: 'updateWebhook',
    summary: 'Update a webhook',
    description: 'Omitted fields keep their values; enabled_events and tags replace the old ones.',
    ok: { status: 200, schema: 'Webhook', description: 'The webhook after the change' },
    errors: {
      400: 'As for creation (validation_error, invalid_event)',
      403: 'Another entity’s (forbidden)',
      404: 'No such webhook (webhook_not_found)',
      409: 'It would be the entity’s second active card_authorizations.request endpoint (authorization_endpoint_exists, decisions §16)',
    },
  })
  async update(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    const { entity_id, ...changes } = body;
    return this.withStats(
      await this.commands.execute(new UpdateWebhookCommand(ctx, entityScope(ctx.actor, entity_id), id, changes)),
    );
  }

  @Delete(':id')
  @ApiBody({
    type: DeleteWebhookBody,
    required: false,
    description: 'entity_id may come in the body instead of the query',
  })
  @ApiRoute({
    id: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Permanently; deliveries stop at once.',
    ok: { status: 200, schema: 'WebhookDeleted', description: 'Deleted' },
    errors: {
      400: 'entity_id missing with an API key (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such webhook (webhook_not_found)',
    },
  })
  async delete(
    @Ctx() ctx: CommandContext,
    @Param('id') id: string,
    @Query() query: EntityQuery,
    @Body() body: DeleteWebhookBody,
  ) {
    await this.commands.execute(
      new DeleteWebhookCommand(ctx, entityScope(ctx.actor, query.entity_id ?? body?.entity_id), id),
    );
    return { status: 'success', message: 'Webhook deleted; its deliveries have stopped', data: { id, deleted: true } };
  }

  private async withStats(webhook: ExistingWebhook) {
    return presentWebhook({ ...webhook, stats: await this.queries.execute(new GetWebhookStatsQuery(webhook.id)) });
  }
}
