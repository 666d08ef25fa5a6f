import type { CommandBus } from '@nestjs/cqrs';
import { cardDecider, pendingTransaction, wasAsked, type CardEvent } from '@app/domain/cards';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { foldStream, reactionContext } from '../command-handling';
import { systemClock, type Clock } from '@app/platform/clock';
import type { ProcessManager } from '@app/platform/log-processing';
import { RecoverCardAuthorizationCommand } from './recover-card-authorization/recover-card-authorization.command';
import { cardStream } from './streams';

/** Past the endpoint's timeout, a request still deciding has had time to record its outcome (as transfers' RESERVATION_GRACE_MS). */
export const AUTHORIZATION_OUTCOME_MARGIN_MS = 5_000;

type Requested = Extract<CardEvent, { type: 'CardAuthorizationRequested' }>;

/**
 * Decisions §16's backstop: a request that died after asking the endpoint (its
 * `CardAuthorizationRequested` is in the log) would leave the transaction pending and held with
 * no outcome. Once the request must have ended (the endpoint's timeout, plus a margin), a
 * transaction still asked without an outcome gets the card's fallback (RecoverCardAuthorization);
 * one its request decided costs one fold and no wait.
 */
export function cardAuthorizationRecoveryManager(
  store: EventStore,
  commands: CommandBus,
  graceMs: number,
  clock: Clock = systemClock,
): ProcessManager {
  const undecided = async ({ card_id, transaction_id }: Requested['data']) => {
    const { state } = await foldStream(store, cardStream(card_id), cardDecider);
    const transaction = state.status === 'issued' ? pendingTransaction(state, transaction_id) : undefined;
    // Still pending, asked, and still the platform's: an approval (held until captured) is an outcome.
    return (
      state.status === 'issued' &&
      transaction !== undefined &&
      wasAsked(state, transaction_id) &&
      (transaction.authorization?.source ?? 'platform') === 'platform'
    );
  };
  return {
    name: 'card-authorization-recovery',
    handles: ['CardAuthorizationRequested'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const { data } = recorded as unknown as Requested;
      if (!(await undecided(data))) return;
      await clock.sleepUntil(data.at + graceMs, signal);
      if (!(await undecided(data))) return;
      await commands.execute(
        new RecoverCardAuthorizationCommand(
          reactionContext(recorded, 'card-authorization-recovery'),
          data.card_id,
          data.transaction_id,
        ),
      );
    },
  };
}
