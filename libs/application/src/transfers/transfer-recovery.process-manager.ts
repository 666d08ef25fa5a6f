import type { CommandBus } from '@nestjs/cqrs';
import type { AccountEvent } from '@app/domain/accounts';
import { type TransferIntent, type TransferReferenceEvent } from '@app/domain/transfers';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import { systemClock, type Clock } from '@app/platform/clock';
import type { ProcessManager } from '@app/platform/log-processing';
import { RecoverTransferReservationCommand } from './recover-transfer-reservation/recover-transfer-reservation.command';
import { transferById } from './transfer-steps';

/** Longer than any request takes, so recovery does not race a request that is still working. */
export const RESERVATION_GRACE_MS = 5_000;

type Started = { intent: TransferIntent; at: number } | null;

/** The transfer a creation step began, and when: a hold that carries it, or a reservation (older logs reserve first). */
function started(recorded: RecordedEvent): Started {
  if (recorded.type === 'FundsHeld') {
    const { transfer, held } = (recorded as unknown as Extract<AccountEvent, { type: 'FundsHeld' }>).data;
    return transfer ? { intent: transfer as TransferIntent, at: held } : null;
  }
  const { intent, reserved } = (
    recorded as unknown as Extract<TransferReferenceEvent, { type: 'TransferReferenceReserved' }>
  ).data;
  return { intent, at: reserved };
}

/**
 * Unfinished creations only, after a deadline: a transfer whose hold (or reservation) is in the log
 * but whose transfer is not, `graceMs` later, is finished from the intent the event carries
 * (created; an older log's reservation is claimed first), or its hold is given back when the
 * reference went to another transfer. A creation its request finished costs one fold and no wait.
 */
export function transferRecoveryManager(
  store: EventStore,
  commands: CommandBus,
  graceMs = RESERVATION_GRACE_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'transfer-recovery',
    handles: ['FundsHeld', 'TransferReferenceReserved'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const begun = started(recorded);
      if (!begun || (await transferById(store, begun.intent.id))) return;
      await clock.sleepUntil(begun.at + graceMs, signal);
      await commands.execute(
        new RecoverTransferReservationCommand(reactionContext(recorded, 'transfer-recovery'), begun.intent),
      );
    },
  };
}
