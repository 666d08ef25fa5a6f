import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { domainError } from '@app/domain';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import {
  CancelPaymentIntentCommand,
  CreatePaymentIntentCommand,
  GetPaymentIntentQuery,
  ListRefundsQuery,
  RefundPaymentIntentCommand,
} from '@app/application/collections';
import { presentIntentAction } from '@app/read-models/collections/intent-action.presenter';
import { presentPaymentIntent, presentRefund } from '@app/read-models/collections/payment-intent.presenter';
import { ListPaymentIntentsQuery } from '@app/read-models/collections/list-payment-intents.query';
import { Ctx } from '../http/auth/auth.decorators';
import { styleA, styleBPagination, styleBQuery } from '../http/pagination';
import { createdRange } from './date-range';
import {
  CancelIntentDto,
  CreatePaymentIntentDto,
  ListPaymentIntentsQueryDto,
  ListRefundsQueryDto,
  RefundDto,
} from './payment-intents.dto';
import { AsOf } from '../audit/as-of.interceptor';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList, styleBList } from '@app/read-models/schema-dsl';

@ApiTags('Collections')
@Controller('payment-intents')
export class PaymentIntentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** 201: `requires_action`, or confirmed at once with `intent_action` embedded (create-and-confirm). */
  @Post()
  @ApiRoute({
    id: 'createPaymentIntent',
    summary: 'Create a payment intent',
    description:
      'Without intent_action: requires_action, to be confirmed. With it: created and confirmed in one call, the action embedded.',
    ok: {
      status: 201,
      schema: { anyOf: [ref('PaymentIntent'), ref('PaymentIntentWithAction')] },
      description: 'The intent (with intent_action when confirmed at once)',
    },
    errors: {
      400: 'A field is missing or invalid, or the card data cannot be decrypted (validation_error, invalid_encrypted_data)',
      403: 'Another entity’s account (forbidden)',
      404: 'No such account (account_not_found)',
      409: {
        description: 'The reference is used on the account (duplicate_reference): the intent that holds it',
        schema: 'DuplicatePaymentIntentError',
      },
      422: 'A business rule (currency_mismatch, …)',
    },
  })
  async create(@Ctx() ctx: CommandContext, @Body() body: CreatePaymentIntentDto) {
    const input = {
      account_id: body.account_id,
      currency: body.currency,
      amount: body.amount,
      reference: body.reference,
      description: body.description ?? null,
      intent_action: body.intent_action ?? null,
    };
    const { intent, intent_action, created } = await this.commands.execute(new CreatePaymentIntentCommand(ctx, input));
    if (!created) throw duplicateReference(presentPaymentIntent(intent));
    return intent_action
      ? { ...presentPaymentIntent(intent), intent_action: presentIntentAction(intent_action) }
      : presentPaymentIntent(intent);
  }

  @Get()
  @ApiRoute({
    id: 'listPaymentIntents',
    summary: 'List payment intents',
    ok: { status: 200, schema: styleBList(ref('PaymentIntent')), description: 'Intents, newest first' },
    errors: { 400: 'A bad filter, date or cursor (validation_error)' },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListPaymentIntentsQueryDto) {
    const { actor } = ctx;
    const filter = {
      organization_id: actor.organizationId,
      mode: actor.mode,
      entity_id: actor.entityId,
      status: query.status,
      reference: query.reference,
      currency: query.currency,
      account_id: query.account_id,
    };
    const page = await this.queries.execute(
      new ListPaymentIntentsQuery(filter, styleBQuery(query, filter, createdRange(query))),
    );
    return { data: page.items.map(presentPaymentIntent), pagination: styleBPagination(query, page) };
  }

  @Get(':id')
  @AsOf()
  @ApiRoute({
    id: 'getPaymentIntent',
    summary: 'Retrieve a payment intent',
    ok: { status: 200, schema: 'PaymentIntent', description: 'The intent' },
    errors: {
      400: 'A malformed as_of (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such intent, or none yet at as_of (payment_intent_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentPaymentIntent(await this.queries.execute(new GetPaymentIntentQuery(ctx.actor, id)));
  }

  /** Only `action: cancel`, only from `requires_action` (else 409, decisions §2). */
  @Patch(':id')
  @ApiRoute({
    id: 'cancelPaymentIntent',
    summary: 'Cancel a payment intent',
    ok: { status: 200, schema: 'PaymentIntent', description: 'The intent, cancelled' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such intent (payment_intent_not_found)',
      409: 'Not in requires_action (invalid_state)',
    },
  })
  async cancel(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CancelIntentDto) {
    return presentPaymentIntent(
      await this.commands.execute(new CancelPaymentIntentCommand(ctx, id, body.reason ?? null)),
    );
  }

  @Post(':id/refunds')
  @ApiRoute({
    id: 'createRefund',
    summary: 'Refund a completed payment intent',
    ok: { status: 201, schema: 'Refund', description: 'The refund, succeeded' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such intent (payment_intent_not_found)',
      409: 'Not completed (invalid_state)',
      422: 'More than charged minus refunded (refund_exceeds_charge), or than available (insufficient_funds)',
    },
  })
  async refund(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: RefundDto) {
    return presentRefund(
      await this.commands.execute(new RefundPaymentIntentCommand(ctx, id, body.amount ?? null, body.reason ?? null)),
    );
  }

  @Get(':id/refunds')
  @ApiRoute({
    id: 'listRefunds',
    summary: 'List refunds of a payment intent',
    ok: { status: 200, schema: styleAList(ref('Refund')), description: 'Refunds, newest first' },
    errors: { 403: 'Another entity’s (forbidden)', 404: 'No such intent (payment_intent_not_found)' },
  })
  async refunds(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: ListRefundsQueryDto) {
    const page = await this.queries.execute(
      new ListRefundsQuery(ctx.actor, id, { limit: query.limit ?? 20, before: query.cursor }),
    );
    return styleA({ items: [...page.items], hasMore: page.hasMore }, presentRefund);
  }
}

/** The 409 names the intent that holds the reference, as a duplicate transfer's does (decisions/collections.md). */
function duplicateReference(intent: ReturnType<typeof presentPaymentIntent>): DomainException {
  const { status: _status, ...fields } = intent;
  return new DomainException(
    domainError(
      'conflict',
      'duplicate_reference',
      `A payment intent with reference "${intent.reference}" already exists for this account`,
      {
        errors: [{ field: 'reference', message: 'already used on this account' }],
        details: { ...fields, payment_intent: intent },
      },
    ),
  );
}
