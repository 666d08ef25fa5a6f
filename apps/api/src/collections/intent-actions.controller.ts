import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import {
  AuthenticateIntentActionCommand,
  ConfirmPaymentIntentCommand,
  GetIntentActionQuery,
  VerifyIntentActionCommand,
} from '@app/application/collections';
import type { IntentActionRecord } from '@app/domain/collections';
import { presentIntentAction } from '@app/read-models/collections/intent-action.presenter';
import { ListIntentActionsQuery } from '@app/read-models/collections/list-intent-actions.query';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { styleBPagination, styleBQuery } from '../http/pagination';
import { createdRange } from './date-range';
import { AuthenticateDto, ConfirmIntentDto, ListIntentActionsQueryDto } from './payment-intents.dto';
import { AsOf } from '../audit/as-of.interceptor';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleBList } from '@app/read-models/schema-dsl';

@ApiTags('Collections')
@Controller()
export class IntentActionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Confirms an intent (201 with the new action). */
  @Post('intent-actions')
  @ApiRoute({
    id: 'confirmPaymentIntent',
    summary: 'Confirm a payment intent (create an intent action)',
    description: 'When requires_action is true the customer completes 3-D Secure at next_action.url.',
    ok: { status: 201, schema: 'IntentAction', description: 'The intent action' },
    errors: {
      400: 'A field is missing or invalid, or the card data cannot be decrypted or is invalid (validation_error, invalid_encrypted_data)',
      403: 'Another entity’s intent (forbidden)',
      404: 'No such intent (payment_intent_not_found)',
      409: 'The intent is not in requires_action (invalid_state)',
    },
  })
  async confirm(@Ctx() ctx: CommandContext, @Body() body: ConfirmIntentDto) {
    return this.present(
      ctx,
      await this.commands.execute(new ConfirmPaymentIntentCommand(ctx, body.payment_intent_id, body.intent_action)),
    );
  }

  @Get('intent-actions')
  @ApiRoute({
    id: 'listIntentActions',
    summary: 'List intent actions',
    ok: { status: 200, schema: styleBList(ref('IntentAction')), description: 'Actions, newest first' },
    errors: { 400: 'A bad filter, date or cursor (validation_error)' },
    readModel: true,
  })
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
    const page = await this.queries.execute(
      new ListIntentActionsQuery(filter, styleBQuery(query, filter, createdRange(query))),
    );
    return { data: page.items.map(presentIntentAction), pagination: styleBPagination(query, page) };
  }

  @Get('intent-actions/:id')
  @AsOf()
  @ApiRoute({
    id: 'getIntentAction',
    summary: 'Retrieve an intent action',
    ok: { status: 200, schema: 'IntentAction', description: 'The action' },
    errors: {
      400: 'A malformed as_of (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such action, or none yet at as_of (intent_action_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentIntentAction(await this.queries.execute(new GetIntentActionQuery(ctx.actor, id)));
  }

  @Post('intent-verifications/:id')
  @HttpCode(200)
  @ApiRoute({
    id: 'verifyIntentAction',
    summary: 'Recheck an intent action',
    description: 'An action not final is rechecked; a completed or failed one is returned as is.',
    ok: { status: 200, schema: 'IntentAction', description: 'The action' },
    errors: { 403: 'Another entity’s (forbidden)', 404: 'No such action (intent_action_not_found)' },
  })
  async verify(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.present(ctx, await this.commands.execute(new VerifyIntentActionCommand(ctx, id)));
  }

  /** The 3-D Secure result by API (decisions §7); answers after the payment is decided and settled. */
  @Post('sandbox/intent-actions/:id/authenticate')
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxAuthenticateIntentAction',
    summary: 'Sandbox: complete 3-D Secure by API',
    description: 'As the 3-D Secure page’s buttons; answers once the payment is decided and settled.',
    ok: { status: 200, schema: 'IntentAction', description: 'The action after authentication' },
    errors: {
      403: 'Another entity’s (forbidden)',
      404: 'No such action (intent_action_not_found)',
      409: 'Not waiting for authentication (invalid_state)',
    },
  })
  async authenticate(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: AuthenticateDto) {
    return this.present(ctx, await this.commands.execute(new AuthenticateIntentActionCommand(ctx, id, body.result)));
  }

  /** With `refunded_amount` as of now (read from the intent's stream). */
  private async present(ctx: CommandContext, action: IntentActionRecord) {
    return presentIntentAction(await this.queries.execute(new GetIntentActionQuery(ctx.actor, action.id)));
  }
}
