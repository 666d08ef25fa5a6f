import { isTransfer, transferDecider, transferReferenceDecider, type TransferReferenceEvent } from '@app/domain/transfers';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { fold } from '@app/domain';
import type { ProcessManager } from '../process-managers';
import { sleep } from '../process-managers';
import { finishReservation, giveBack } from './finish-reservation';
import { transferReferenceStream, transferStream } from './streams';
import { systemContext } from './transfer-money.process-manager';

/** Longer than any request takes, so recovery does not race a request that is still working. */
export const RESERVATION_GRACE_MS = 5_000;

/**
 * Crash recovery for transfer creation: every reservation ends as a transfer or as a voided id
 * with its hold given back and its reference free. If the request that reserved it died midway
 * (after the reservation, or after the hold), this finishes it from the intent the reservation
 * carries — the same steps the request would have taken, each idempotent.
 */
export function transferRecoveryManager(store: EventStore, graceMs = RESERVATION_GRACE_MS): ProcessManager {
  const settled = async (transferId: string) => fold(transferDecider, (await store.readStream(transferStream(transferId))) as never[]);
  return {
    name: 'transfer-recovery',
    handles: ['TransferReferenceReserved'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const { intent, reserved } = (recorded as unknown as Extract<TransferReferenceEvent, { type: 'TransferReferenceReserved' }>).data;
      const context = systemContext(recorded, 'transfer-recovery');
      if (isTransfer(await settled(intent.id))) return;
      await sleep(reserved + graceMs - Date.now(), signal);
      const state = await settled(intent.id);
      if (isTransfer(state)) return;
      if (state.status === 'voided') {
        await giveBack(store, intent, context);
        return;
      }
      const reference = fold(transferReferenceDecider, (await store.readStream(transferReferenceStream(intent.account_id, intent.unique_reference))) as never[]);
      // Still the reserved id: finish it. Otherwise the reference moved on; only a stray hold may remain.
      if (reference.status === 'reserved' && reference.transfer_id === intent.id) await finishReservation(store, intent, context);
      else await giveBack(store, intent, context);
    },
  };
}
