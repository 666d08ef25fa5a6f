import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import {
  AuthorizeCardCommand,
  ChangeCardStatusCommand,
  GetCardQuery,
  SettleCardTransactionCommand,
} from '@app/application/cards';
import { presentCard } from '@app/read-models/cards/card.presenter';
import { presentCardTransaction } from '@app/read-models/cards/card-transaction.presenter';
import { ListCardTransactionsQuery } from '@app/read-models/cards/list-card-transactions.query';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { styleBPagination, styleBQuery } from '../http/pagination';
import { AuthorizationDto, CaptureDto, ListCardTransactionsQueryDto } from './cards.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/** The sandbox authorization network (decisions §8) and the card's transactions. */
@ApiTags('Cards')
@Controller()
export class CardTransactionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('sandbox/cards/:id/authorizations')
  @SandboxOnly()
  @ApiRoute({
    id: 'sandboxAuthorizeCard',
    summary: 'Sandbox: a card authorization',
    description:
      'Successful (debits, or holds with capture false) or declined with status_reason (card_blocked, insufficient_funds, limit_exceeded, mcc_blocked, declined_by_endpoint). When the entity has a webhook subscribed to card_authorizations.request, an authorization the platform approves is sent to it and this answers once it decided (at most CARD_AUTHORIZATION_TIMEOUT_MS, then the card’s authorization_fallback); `authorization` says who decided (decisions §16).',
    ok: { status: 201, schema: 'CardTransactionEnvelope', description: 'The card transaction' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card (card_not_found)',
      422: 'A business rule (fx_not_supported, …)',
    },
  })
  async authorize(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: AuthorizationDto) {
    const input = {
      amount: body.amount,
      currency: body.currency,
      merchant: { ...body.merchant },
      capture: body.capture ?? true,
    };
    return { data: presentCardTransaction(await this.commands.execute(new AuthorizeCardCommand(ctx, id, input))) };
  }

  @Post('sandbox/card-transactions/:id/capture')
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxCaptureCardTransaction',
    summary: 'Sandbox: capture a held card transaction',
    ok: { status: 200, schema: 'CardTransactionEnvelope', description: 'The card transaction, successful' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card transaction (card_transaction_not_found)',
      409: 'Not pending (card_transaction_not_pending)',
      422: 'More than held (amount_exceeds_hold)',
    },
  })
  async capture(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: CaptureDto) {
    return {
      data: presentCardTransaction(
        await this.commands.execute(new SettleCardTransactionCommand(ctx, id, { capture: body.amount ?? null })),
      ),
    };
  }

  @Post('sandbox/card-transactions/:id/reverse')
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxReverseCardTransaction',
    summary: 'Sandbox: reverse a held card transaction',
    ok: { status: 200, schema: 'CardTransactionEnvelope', description: 'The card transaction, reversed' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card transaction (card_transaction_not_found)',
      409: 'Not pending (card_transaction_not_pending)',
    },
  })
  async reverse(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return {
      data: presentCardTransaction(await this.commands.execute(new SettleCardTransactionCommand(ctx, id, 'reverse'))),
    };
  }

  @Post('sandbox/cards/:id/fraud')
  @SandboxOnly()
  @HttpCode(200)
  @ApiRoute({
    id: 'sandboxMarkCardFraud',
    summary: 'Sandbox: mark a card fraud',
    description: 'Every later authorization is declined card_blocked; there is no way out of fraud.',
    ok: { status: 200, schema: 'CardStatusChange', description: 'status fraud' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card (card_not_found)',
      409: 'Deleted (card_deleted)',
    },
  })
  async fraud(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const card = presentCard(await this.commands.execute(new ChangeCardStatusCommand(ctx, id, 'MarkCardFraud')));
    return { data: { id: card.id, status: card.status, updated: card.updated } };
  }

  /** The card is checked first (404, 403 another entity's), then its transactions are listed, newest first. */
  @Get('card-transactions/:cardId')
  @ApiRoute({
    id: 'listCardTransactions',
    summary: 'List a card’s transactions',
    ok: { status: 200, schema: 'CardTransactionList', description: 'Card transactions, newest first' },
    errors: { 403: 'Another entity’s card (forbidden)', 404: 'No such card (card_not_found)' },
    readModel: true,
  })
  async list(
    @Ctx() ctx: CommandContext,
    @Param('cardId') cardId: string,
    @Query() query: ListCardTransactionsQueryDto,
  ) {
    await this.queries.execute(new GetCardQuery(ctx.actor, cardId));
    const paging = { ...query, next_cursor: query.next_cursor ?? query.cursor };
    const filter = { organization_id: ctx.actor.organizationId, mode: ctx.actor.mode, card_id: cardId };
    const page = await this.queries.execute(new ListCardTransactionsQuery(filter, styleBQuery(paging)));
    const { has_next, has_previous, next_cursor, prev_cursor } = styleBPagination(paging, page);
    const pagination = {
      order: 'desc',
      has_next,
      has_previous,
      limit: paging.limit ?? 20,
      next_cursor,
      previous_cursor: prev_cursor,
    };
    return { data: { payments: page.items.map(presentCardTransaction), pagination } };
  }
}
