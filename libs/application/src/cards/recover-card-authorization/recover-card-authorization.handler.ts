import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { cardDecider } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { fallbackVerdict } from '../authorize-card/endpoint-decision';
import { loadCard } from '../card-checks';
import { cardStream } from '../streams';
import { RecoverCardAuthorizationCommand } from './recover-card-authorization.command';

/**
 * Decisions §16's outcome for a transaction whose request died after asking: the card's fallback,
 * reason `no_outcome`, decided on the card stream like any outcome, so the first one recorded wins
 * (a late answer, or this run repeated, records nothing). The account follows through the
 * card-money process manager, which applies every outcome's money from the log.
 */
@CommandHandler(RecoverCardAuthorizationCommand)
export class RecoverCardAuthorizationHandler implements ICommandHandler<RecoverCardAuthorizationCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, cardId, transactionId }: RecoverCardAuthorizationCommand): Promise<void> {
    // The fallback is the card's, fixed at its issue: read before the decision, which the card stream makes.
    const card = await loadCard(this.store, context.actor, cardId);
    const decide = {
      type: 'DecideCardAuthorization' as const,
      card_id: cardId,
      transaction_id: transactionId,
      ...fallbackVerdict(card, 'no_outcome'),
      now: this.clock.now(),
    };
    await handleCommand(this.store, cardStream(cardId), cardDecider, decide, context);
  }
}
