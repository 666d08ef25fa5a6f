import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { AuthenticateIntentActionCommand, ConfirmPaymentIntentCommand, GetIntentActionQuery, VerifyIntentActionCommand } from '@app/application/collections';
import type { IntentActionRecord } from '@app/domain/collections';
import { presentIntentAction } from '@app/read-models/collections/intent-action.presenter';
import { ListIntentActionsQuery } from '@app/read-models/collections/list-intent-actions.query';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { styleBPagination, styleBQuery } from '../http/pagination';
import { createdRange } from './date-range';
import { AuthenticateDto, ConfirmIntentDto, ListIntentActionsQueryDto } from './payment-intents.dto';
import { AsOf } from '../audit/as-of.interceptor';

@Controller()
export class IntentActionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Confirms an intent (201 with the new action). */
  @Post('intent-actions')
  async confirm(@Ctx() ctx: CommandContext, @Body() body: ConfirmIntentDto) {
    return this.present(ctx, await this.commands.execute(new ConfirmPaymentIntentCommand(ctx, body.payment_intent_id, body.intent_action)));
  }

  @Get('intent-actions')
  async list(@Ctx() ctx: CommandContext, @Query() query: ListIntentActionsQueryDto) {
    const { actor } = ctx;
    const filter = {
      organization_id: actor.organizationId,
      mode: actor.mode,
      entity_id: actor.entityId,
      currency: query.currency,
      reference: query.reference,
      payment_type: query.payment_type,
      status: query.status,
      payment_intent_id: query.payment_intent_id,
      account_id: query.account_id,
    };
    const page = await this.queries.execute(new ListIntentActionsQuery(filter, styleBQuery(query, filter, createdRange(query))));
    return { data: page.items.map(presentIntentAction), pagination: styleBPagination(query, page) };
  }

  @Get('intent-actions/:id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentIntentAction(await this.queries.execute(new GetIntentActionQuery(ctx.actor, id)));
  }

  @Post('intent-verifications/:id')
  @HttpCode(200)
  async verify(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.present(ctx, await this.commands.execute(new VerifyIntentActionCommand(ctx, id)));
  }

  /** The 3-D Secure result by API (decisions §7); answers after the payment is decided and settled. */
  @Post('sandbox/intent-actions/:id/authenticate')
  @SandboxOnly()
  @HttpCode(200)
  async authenticate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: AuthenticateDto) {
    return this.present(ctx, await this.commands.execute(new AuthenticateIntentActionCommand(ctx, id, body.result)));
  }

  /** With `refunded_amount` as of now (read from the intent's stream). */
  private async present(ctx: CommandContext, action: IntentActionRecord) {
    return presentIntentAction(await this.queries.execute(new GetIntentActionQuery(ctx.actor, action.id)));
  }
}
