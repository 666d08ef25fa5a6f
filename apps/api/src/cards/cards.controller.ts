import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import {
  ChangeCardStatusCommand,
  GetCardQuery,
  IssueCardCommand,
  ReassignCardCommand,
  type IssueCardInput,
} from '@app/application/cards';
import { ListCardsQuery } from '@app/read-models/cards/list-cards.query';
import { presentCard, presentCardSummary } from '@app/read-models/cards/card.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { optionalEntityScope } from '../http/entity-scope';
import { styleBPagination, styleBQuery } from '../http/pagination';
import { CreateDisposableCardDto, CreateVirtualCardDto, ListCardsQueryDto, ReassignCardDto } from './cards.dto';
import { requireEntityOrAccount } from './card-scope';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/** Spec part "Cards": creations answer `{status, data}`, everything else `{data}`. */
/** The two creation routes answer alike. */
const CREATE_CARD_ANSWERS = {
  ok: { status: 201, schema: 'CardCreated', description: 'The card with its number and CVV (this response only)' },
  errors: {
    400: 'A field is missing or invalid, or a control is (validation_error)',
    403: 'Another entity’s account (forbidden)',
    404: 'No such account (account_not_found)',
    422: 'A business rule (fx_not_supported, …)',
    429: {
      description:
        'Over CARD_CREATION_LIMIT_PER_HOUR for the entity (rate_limited, limit_type card_creation_per_hour), with Retry-After',
      schema: 'RateLimitError',
    },
  },
} as const;

@ApiTags('Cards')
@Controller()
export class CardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('disposable-cards')
  @ApiRoute({
    id: 'createDisposableCard',
    summary: 'Create a disposable card',
    description: 'Blocked after its first successful transaction.',
    ...CREATE_CARD_ANSWERS,
  })
  createDisposable(
    @Ctx() ctx: CommandContext,
    @Body() body: CreateDisposableCardDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.issue(ctx, res, {
      ...common(body),
      type: 'disposable',
      expiration_month: body.expiration_month,
      expiration_year: body.expiration_year,
      transaction_alerts: false,
    });
  }

  @Post('virtual-cards')
  @ApiRoute({
    id: 'createVirtualCard',
    summary: 'Create a virtual card',
    description: 'With optional spending controls: individual, per MCC and per MCC group.',
    ...CREATE_CARD_ANSWERS,
  })
  createVirtual(
    @Ctx() ctx: CommandContext,
    @Body() body: CreateVirtualCardDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const controls = {
      individual_controls: body.individual_controls,
      individual_mcc_controls: body.individual_mcc_controls,
      mcc_group_controls: body.mcc_group_controls,
    };
    return this.issue(ctx, res, {
      ...common(body),
      ...controls,
      type: 'virtual',
      expiration_month: null,
      expiration_year: null,
      transaction_alerts: body.transaction_alerts ?? false,
    });
  }

  @Get('cards')
  @ApiRoute({
    id: 'listCards',
    summary: 'List cards',
    description:
      'Of an account, or (without account_id) of the entity; deleted cards are excluded, frozen and blocked ones included.',
    ok: { status: 200, schema: 'CardList', description: 'Cards, newest first' },
    errors: {
      400: 'Neither entity_id nor account_id with an API key, or a bad cursor (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such account (account_not_found)',
    },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Query() query: ListCardsQueryDto) {
    const entity_id = requireEntityOrAccount(
      ctx.actor,
      optionalEntityScope(ctx.actor, query.entity_id),
      query.account_id,
    );
    const filter = {
      organization_id: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      deleted: false as const,
      entity_id,
      account_id: query.account_id,
    };
    const page = await this.queries.execute(new ListCardsQuery(filter, styleBQuery(query)));
    return { data: { cards: page.items.map(presentCardSummary), pagination: styleBPagination(query, page) } };
  }

  @Get('card-details/:id')
  @ApiRoute({
    id: 'getCardDetails',
    summary: 'Retrieve a card with its credentials and usage',
    ok: { status: 200, schema: 'CardDetails', description: 'The card' },
    errors: { 403: 'The card belongs to another entity (forbidden)', 404: 'No such card (card_not_found)' },
  })
  async details(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const { card, number, cvv, usage } = await this.queries.execute(new GetCardQuery(ctx.actor, id));
    return { data: presentCard(card, { number, cvv }, usage) };
  }

  @Patch('card-details/:id/freeze')
  @ApiRoute({
    id: 'freezeCard',
    summary: 'Freeze a card',
    ok: { status: 200, schema: 'CardStatusChange', description: 'status blocked' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card (card_not_found)',
      409: 'Deleted or fraud (card_deleted, card_fraud)',
    },
  })
  freeze(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.change(ctx, id, 'FreezeCard');
  }

  @Patch('card-details/:id/unfreeze')
  @ApiRoute({
    id: 'unfreezeCard',
    summary: 'Unfreeze a card',
    ok: {
      status: 200,
      schema: 'CardStatusChange',
      description: 'status active (blocked if a disposable card was used)',
    },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card (card_not_found)',
      409: 'Deleted or fraud (card_deleted, card_fraud)',
    },
  })
  unfreeze(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.change(ctx, id, 'UnfreezeCard');
  }

  @Delete('card-details/:id')
  @ApiRoute({
    id: 'deleteCard',
    summary: 'Delete a card (soft delete)',
    ok: { status: 200, schema: 'CardDeleted', description: 'status blocked, and when it was deleted' },
    errors: {
      403: 'Another entity’s card (forbidden)',
      404: 'No such card (card_not_found)',
      409: 'Deleted already (card_deleted)',
    },
  })
  async remove(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const card = presentCard(await this.commands.execute(new ChangeCardStatusCommand(ctx, id, 'DeleteCard')));
    return { data: { id: card.id, status: card.status, deleted: card.deleted } };
  }

  @Patch('cards/:id/account')
  @ApiRoute({
    id: 'reassignCard',
    summary: 'Move a card to another account',
    ok: { status: 200, schema: 'CardReassigned', description: 'The card’s new account' },
    errors: {
      403: 'Another entity’s card or account (forbidden)',
      404: 'No such card or account (card_not_found, account_not_found)',
      409: 'Already on that account (card_already_assigned), or deleted (card_deleted)',
      422: 'A business rule (fx_not_supported, …)',
    },
  })
  async reassign(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: ReassignCardDto) {
    const card = presentCard(await this.commands.execute(new ReassignCardCommand(ctx, id, body.account_id)));
    return { data: { card_id: card.id, account_id: card.account_id, currency: card.currency, updated: card.updated } };
  }

  private async change(ctx: CommandContext, id: string, change: 'FreezeCard' | 'UnfreezeCard') {
    const card = presentCard(await this.commands.execute(new ChangeCardStatusCommand(ctx, id, change)));
    return { data: { id: card.id, status: card.status, updated: card.updated } };
  }

  /** 201 with the credentials; over the hourly limit, 429 with `Retry-After` (decisions §2). */
  private async issue(ctx: CommandContext, res: Response, input: IssueCardInput) {
    try {
      const { card, number, cvv } = await this.commands.execute(new IssueCardCommand(ctx, input));
      return { status: 'success', data: presentCard(card, { number, cvv }) };
    } catch (error) {
      const retryAfter = error instanceof DomainException ? error.error.details?.retry_after : undefined;
      if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
      throw error;
    }
  }
}

function common(body: CreateDisposableCardDto | CreateVirtualCardDto) {
  const { first_name, last_name, email, phone_number } = body.cardholder;
  const billing = body.billing ? { ...body.billing, address_line_2: body.billing.address_line_2 ?? null } : null;
  return {
    account_id: body.account_id,
    card_name: body.card_name,
    cardholder: { first_name, last_name, email, phone_number },
    currency: body.currency,
    amount: body.amount,
    billing,
    metadata: body.metadata ?? {},
    authorization_fallback: body.authorization_fallback ?? 'decline',
  };
}
