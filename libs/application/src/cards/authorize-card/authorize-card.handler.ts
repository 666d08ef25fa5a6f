import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import { cardDecider, cardTransactionIndexDecider, type CardTransactionRecord } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { authorizationEndpoint } from '../../webhooks/authorization-endpoint';
import {
  CARD_AUTHORIZATION_CALLER,
  CARD_DATASETS,
  type AuthorizationEndpointCaller,
  type CardDatasets,
} from '../card-ports';
import { decideWithEndpoint } from './endpoint-decision';
import { fxQuote, loadAccount, loadCard } from '../card-checks';
import { decidedTransaction, holdOnAccount, settleTransaction } from '../card-money';
import { cardStream, cardTransactionStream } from '../streams';
import { AuthorizeCardCommand } from './authorize-card.command';

/**
 * One decision on the card stream (status, one-shot, MCC, every limit; approved: usage holds it),
 * then the hold on the account stream (balance), then the entity's authorization endpoint if it has
 * one (decisions §16), then the capture unless `capture: false`.
 * docs/decisions/cards.md explains why no limit can be passed and no money created.
 */
@CommandHandler(AuthorizeCardCommand)
export class AuthorizeCardHandler implements ICommandHandler<AuthorizeCardCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CARD_DATASETS) private readonly datasets: CardDatasets,
    @Inject(CARD_AUTHORIZATION_CALLER) private readonly caller: AuthorizationEndpointCaller,
  ) {}

  async execute({ context, cardId, input }: AuthorizeCardCommand): Promise<CardTransactionRecord> {
    const card = await loadCard(this.store, context.actor, cardId);
    if (input.currency !== card.card.currency) {
      throw new DomainException(
        rule('currency_mismatch', `Card ${cardId} spends ${card.card.currency}, not ${input.currency}`, [
          { field: 'currency', message: `must be ${card.card.currency}` },
        ]),
      );
    }
    const account = await loadAccount(this.store, context.actor, card.card.account_id);
    const fx = fxQuote(this.datasets.fx, card.card.currency, account.currency, input.amount);
    const now = this.clock.now();
    const id = `ctxn_${ulid()}`;
    await handleCommand(
      this.store,
      cardTransactionStream(id),
      cardTransactionIndexDecider,
      { transaction_id: id, card_id: cardId },
      context,
      { entityId: card.card.entity_id },
    );
    const authorize = {
      type: 'AuthorizeCard' as const,
      card_id: cardId,
      transaction_id: id,
      amount: input.amount,
      merchant: input.merchant,
      account_id: account.id,
      fx,
      groups: this.datasets.mccGroups,
      now,
    };
    const decided = decidedTransaction(
      await handleCommand(this.store, cardStream(cardId), cardDecider, authorize, context),
      id,
    )!;
    if (decided.status !== 'pending') return decided;
    const placed = await holdOnAccount(this.store, context, decided, now);
    // Decisions §16: the entity's endpoint has the last word on what the platform approved.
    const endpoint =
      placed.status === 'pending' ? await authorizationEndpoint(this.store, card.card.entity_id, now) : null;
    const deps = { store: this.store, caller: this.caller, clock: this.clock };
    const held = endpoint ? await decideWithEndpoint(deps, context, card, endpoint, placed, now) : placed;
    if (held.status !== 'pending' || !input.capture) return held;
    return settleTransaction(this.store, context, cardId, id, { capture: null }, now);
  }
}
