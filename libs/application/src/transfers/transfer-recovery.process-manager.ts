import type { CommandBus } from '@nestjs/cqrs';
import { fold } from '@app/domain';
import { isTransfer, transferDecider, type TransferReferenceEvent } from '@app/domain/transfers';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import type { ProcessManager } from '../process-managers';
import { sleep } from '../process-managers';
import { RecoverTransferReservationCommand } from './recover-transfer-reservation/recover-transfer-reservation.command';
import { transferStream } from './streams';

/** Longer than any request takes, so recovery does not race a request that is still working. */
export const RESERVATION_GRACE_MS = 5_000;

/**
 * Crash recovery for transfer creation: every reservation ends as a transfer or as a voided id
 * with its hold given back and its reference free. If the request that reserved it died midway
 * (after the reservation, or after the hold), the recovery command finishes it from the intent the
 * reservation carries. A reservation already turned into a transfer costs one read and no wait.
 */
export function transferRecoveryManager(store: EventStore, commands: CommandBus, graceMs = RESERVATION_GRACE_MS): ProcessManager {
  return {
    name: 'transfer-recovery',
    handles: ['TransferReferenceReserved'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const { intent, reserved } = (recorded as unknown as Extract<TransferReferenceEvent, { type: 'TransferReferenceReserved' }>).data;
      if (isTransfer(fold(transferDecider, (await store.readStream(transferStream(intent.id))) as never[]))) return;
      await sleep(reserved + graceMs - Date.now(), signal);
      await commands.execute(new RecoverTransferReservationCommand(reactionContext(recorded, 'transfer-recovery'), intent));
    },
  };
}
