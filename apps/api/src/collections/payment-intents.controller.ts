import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { CancelPaymentIntentCommand, CreatePaymentIntentCommand, GetPaymentIntentQuery, ListRefundsQuery, RefundPaymentIntentCommand } from '@app/application/collections';
import { presentIntentAction } from '@app/read-models/collections/intent-action.presenter';
import { presentPaymentIntent, presentRefund } from '@app/read-models/collections/payment-intent.presenter';
import { ListPaymentIntentsQuery } from '@app/read-models/collections/list-payment-intents.query';
import { Ctx } from '../http/auth/auth.decorators';
import { styleA, styleBPagination, styleBQuery } from '../http/pagination';
import { createdRange } from './date-range';
import { CancelIntentDto, CreatePaymentIntentDto, ListPaymentIntentsQueryDto, ListRefundsQueryDto, RefundDto } from './payment-intents.dto';
import { AsOf } from '../audit/as-of.interceptor';

@Controller('payment-intents')
export class PaymentIntentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** 201: `requires_action`, or confirmed at once with `intent_action` embedded (create-and-confirm). */
  @Post()
  async create(@Ctx() ctx: CommandContext, @Body() body: CreatePaymentIntentDto) {
    const input = { account_id: body.account_id, currency: body.currency, amount: body.amount, reference: body.reference, description: body.description ?? null, intent_action: body.intent_action ?? null };
    const { intent, intent_action } = await this.commands.execute(new CreatePaymentIntentCommand(ctx, input));
    return intent_action ? { ...presentPaymentIntent(intent), intent_action: presentIntentAction(intent_action) } : presentPaymentIntent(intent);
  }

  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListPaymentIntentsQueryDto) {
    const { actor } = ctx;
    const filter = { organization_id: actor.organizationId, mode: actor.mode, entity_id: actor.entityId, status: query.status, reference: query.reference, currency: query.currency, account_id: query.account_id };
    const page = await this.queries.execute(new ListPaymentIntentsQuery(filter, styleBQuery(query, filter, createdRange(query))));
    return { data: page.items.map(presentPaymentIntent), pagination: styleBPagination(query, page) };
  }

  @Get(':id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentPaymentIntent(await this.queries.execute(new GetPaymentIntentQuery(ctx.actor, id)));
  }

  /** Only `action: cancel`, only from `requires_action` (else 409, decisions §2). */
  @Patch(':id')
  async cancel(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CancelIntentDto) {
    return presentPaymentIntent(await this.commands.execute(new CancelPaymentIntentCommand(ctx, id, body.reason ?? null)));
  }

  @Post(':id/refunds')
  async refund(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: RefundDto) {
    return presentRefund(await this.commands.execute(new RefundPaymentIntentCommand(ctx, id, body.amount ?? null, body.reason ?? null)));
  }

  @Get(':id/refunds')
  async refunds(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: ListRefundsQueryDto) {
    const page = await this.queries.execute(new ListRefundsQuery(ctx.actor, id, { limit: query.limit ?? 20, before: query.cursor }));
    return styleA({ items: [...page.items], hasMore: page.hasMore }, presentRefund);
  }
}

