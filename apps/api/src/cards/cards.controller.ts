import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { DomainException, type CommandContext } from '@app/application/command-handling';
import { ChangeCardStatusCommand, GetCardQuery, IssueCardCommand, ReassignCardCommand, type IssueCardInput } from '@app/application/cards';
import { ListCardsQuery } from '@app/read-models/cards/list-cards.query';
import { presentCard, presentCardSummary } from '@app/read-models/cards/card.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { optionalEntityScope } from '../http/entity-scope';
import { styleBPagination, styleBQuery } from '../http/pagination';
import { CreateDisposableCardDto, CreateVirtualCardDto, ListCardsQueryDto, ReassignCardDto } from './cards.dto';
import { requireEntityOrAccount } from './card-scope';

/** Spec part "Cards": creations answer `{status, data}`, everything else `{data}`. */
@Controller()
export class CardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('disposable-cards')
  createDisposable(@Ctx() ctx: CommandContext, @Body() body: CreateDisposableCardDto, @Res({ passthrough: true }) res: Response) {
    return this.issue(ctx, res, { ...common(body), type: 'disposable', expiration_month: body.expiration_month, expiration_year: body.expiration_year, transaction_alerts: false });
  }

  @Post('virtual-cards')
  createVirtual(@Ctx() ctx: CommandContext, @Body() body: CreateVirtualCardDto, @Res({ passthrough: true }) res: Response) {
    const controls = { individual_controls: body.individual_controls, individual_mcc_controls: body.individual_mcc_controls, mcc_group_controls: body.mcc_group_controls };
    return this.issue(ctx, res, { ...common(body), ...controls, type: 'virtual', expiration_month: null, expiration_year: null, transaction_alerts: body.transaction_alerts ?? false });
  }

  @Get('cards')
  async list(@Ctx() ctx: CommandContext, @Query() query: ListCardsQueryDto) {
    const entity_id = requireEntityOrAccount(ctx.actor, optionalEntityScope(ctx.actor, query.entity_id), query.account_id);
    const filter = { organization_id: ctx.actor.organizationId, mode: ctx.actor.mode, deleted: false as const, entity_id, account_id: query.account_id };
    const page = await this.queries.execute(new ListCardsQuery(filter, styleBQuery(query)));
    return { data: { cards: page.items.map(presentCardSummary), pagination: styleBPagination(query, page) } };
  }

  @Get('card-details/:id')
  async details(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const { card, number, cvv, usage } = await this.queries.execute(new GetCardQuery(ctx.actor, id));
    return { data: presentCard(card, { number, cvv }, usage) };
  }

  @Patch('card-details/:id/freeze')
  freeze(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.change(ctx, id, 'FreezeCard');
  }

  @Patch('card-details/:id/unfreeze')
  unfreeze(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return this.change(ctx, id, 'UnfreezeCard');
  }

  @Delete('card-details/:id')
  async remove(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const card = presentCard(await this.commands.execute(new ChangeCardStatusCommand(ctx, id, 'DeleteCard')));
    return { data: { id: card.id, status: card.status, deleted: card.deleted } };
  }

  @Patch('cards/:id/account')
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
  return { account_id: body.account_id, card_name: body.card_name, cardholder: { first_name, last_name, email, phone_number }, currency: body.currency, amount: body.amount, billing, metadata: body.metadata ?? {} };
}
