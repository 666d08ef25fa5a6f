import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { rule } from '@app/domain';
import { cardDecider, type IssuedCardState } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { CARD_DATASETS, type CardDatasets } from '../card-ports';
import { fxQuote, loadAccount, loadCard } from '../card-checks';
import { cardStream } from '../streams';
import { ReassignCardCommand } from './reassign-card.command';

/**
 * The target must be an open account of the card's entity; its currency may differ when the FX
 * table converts between them (authorizations then convert, decisions §8). Holds already placed
 * stay on the account that held them.
 */
@CommandHandler(ReassignCardCommand)
export class ReassignCardHandler implements ICommandHandler<ReassignCardCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CARD_DATASETS) private readonly datasets: CardDatasets,
  ) {}

  async execute({ context, cardId, accountId }: ReassignCardCommand): Promise<IssuedCardState> {
    const card = await loadCard(this.store, context.actor, cardId);
    const account = await loadAccount(this.store, context.actor, accountId);
    if (account.entity_id !== card.card.entity_id) {
      throw new DomainException(
        rule('entity_mismatch', `Account ${accountId} belongs to another entity than card ${cardId}`, [
          { field: 'account_id', message: "must be an account of the card's entity" },
        ]),
      );
    }
    fxQuote(this.datasets.fx, card.card.currency, account.currency, 1);
    const command = { type: 'ReassignCard' as const, card_id: cardId, account_id: accountId, now: this.clock.now() };
    const { state } = await handleCommand(this.store, cardStream(cardId), cardDecider, command, context);
    return state as IssuedCardState;
  }
}
