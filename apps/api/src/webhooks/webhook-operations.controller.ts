import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { WEBHOOK_EXPIRE_PREVIOUS_MAX } from '@app/domain';
import type { CommandContext } from '@app/application/command-handling';
import { RecoverDeliveriesCommand, ResendDeliveryCommand, RotateWebhookSecretCommand } from '@app/application/webhooks';
import { GetWebhookStatsQuery } from '@app/read-models/webhooks/get-webhook-stats.query';
import { presentWebhook } from '@app/read-models/webhooks/webhook.presenter';
import { instant } from '../collections/date-range';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope } from '../http/entity-scope';
import { ApiRoute } from '../openapi/api-route.decorator';
import { RecoverDeliveriesDto, ResendDeliveryDto, RotateWebhookSecretDto } from './webhook-operations.dto';

const TENANCY = { 403: 'Another entity’s (forbidden)' } as const;

/** Decisions §15: what teams do with a webhook beyond configuring it (Svix's resend and recover, Stripe's rolling secret). */
@ApiTags('Webhooks')
@Controller('entity-webhooks')
export class WebhookOperationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(':id/resend')
  @HttpCode(202)
  @ApiRoute({
    id: 'resendWebhookEvent',
    summary: 'Send one event to a webhook again',
    description:
      'One new attempt at once, even after a success: the same body and webhook-id, a new timestamp and signature, logged with the next attempt number. Not retried.',
    ok: { status: 202, schema: 'WebhookResendAccepted', description: 'The attempt is scheduled' },
    errors: {
      400: 'entity_id missing with an API key, or a malformed event_id (validation_error)',
      ...TENANCY,
      404: 'No such webhook (webhook_not_found), or an event it was never due (event_not_found)',
      409: 'Its delivery is still being retried (delivery_pending)',
      422: 'The webhook is inactive (webhook_inactive)',
    },
  })
  async resend(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: ResendDeliveryDto) {
    const data = await this.commands.execute(
      new ResendDeliveryCommand(ctx, entityScope(ctx.actor, body.entity_id), id, body.event_id),
    );
    return { status: 'success', data };
  }

  @Post(':id/recover')
  @HttpCode(202)
  @ApiRoute({
    id: 'recoverWebhookDeliveries',
    summary: 'Schedule again every failed delivery of a window',
    description:
      'Every event of the window whose latest attempt to this webhook failed goes through the usual retries again, in per-resource order.',
    ok: { status: 202, schema: 'WebhookRecoverAccepted', description: 'How many deliveries were scheduled again' },
    errors: {
      400: 'entity_id missing with an API key, a malformed date, or until before since (validation_error)',
      ...TENANCY,
      404: 'No such webhook (webhook_not_found)',
    },
  })
  async recover(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: RecoverDeliveriesDto) {
    const since = instant(body.since, 'from');
    const until = body.until === undefined ? null : instant(body.until, 'to');
    const data = await this.commands.execute(
      new RecoverDeliveriesCommand(ctx, entityScope(ctx.actor, body.entity_id), id, since, until),
    );
    return { status: 'success', data };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiRoute({
    id: 'rotateWebhookSecret',
    summary: 'Rotate a webhook’s signing secret',
    description:
      'Until the previous secret expires, deliveries carry two signatures, the new one first, so receivers holding either verify.',
    ok: {
      status: 200,
      schema: 'WebhookSecretRotated',
      description: 'The webhook, with the new signing_secret (returned once)',
    },
    errors: {
      400: 'A secret outside 16-128 characters, or expire_previous_in outside 0-86400 (validation_error)',
      ...TENANCY,
      404: 'No such webhook (webhook_not_found)',
    },
  })
  async rotate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: RotateWebhookSecretDto) {
    const expireIn = body.expire_previous_in ?? WEBHOOK_EXPIRE_PREVIOUS_MAX;
    const { webhook, signingSecret } = await this.commands.execute(
      new RotateWebhookSecretCommand(ctx, entityScope(ctx.actor, body.entity_id), id, body.secret, expireIn),
    );
    const stats = await this.queries.execute(new GetWebhookStatsQuery(webhook.id));
    return { ...presentWebhook({ ...webhook, stats }), signing_secret: signingSecret };
  }
}
