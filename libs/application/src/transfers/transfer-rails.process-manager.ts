import type { CommandBus } from '@nestjs/cqrs';
import type { TransferEvent } from '@app/domain/transfers';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { modeOf } from '@app/platform/event-store/event-mode';
import { DomainException, reactionContext } from '../command-handling';
import { systemClock, type Clock } from '@app/platform/clock';
import type { ProcessManager } from '@app/platform/log-processing';
import { AdvanceTransferCommand } from './advance-transfer/advance-transfer.command';

/** Each network step takes this long, so a transfer is successful about 1.6 s after creation (decisions §6: within ~2 s). */
export const RAIL_STEP_MS = 800;

/**
 * The simulated network of SANDBOX_AUTO_ADVANCE: pending → processing → successful. Delays are
 * measured from the event's own time, so a step that fell due while the process was down runs at
 * once after a restart. Live transfers are left to the operator. A step the transfer has already left (moved by the sandbox endpoint) is
 * refused by the lifecycle (a conflict) and dropped. Book transfers are not on a network.
 */
export function transferRailsManager(
  commands: CommandBus,
  stepMs = RAIL_STEP_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'transfer-rails',
    handles: ['TransferCreated', 'TransferProcessing'],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const event = recorded as unknown as Extract<TransferEvent, { type: 'TransferCreated' | 'TransferProcessing' }>;
      const t = event.data.transfer;
      // A simulator never moves a live transfer (decisions §1): the operator API does.
      if (t.payment_type === 'book-transfer' || modeOf(recorded.metadata) === 'live') return;
      await clock.sleepUntil(t.updated + stepMs, signal);
      const to = event.type === 'TransferCreated' ? 'processing' : 'successful';
      try {
        await commands.execute(new AdvanceTransferCommand(reactionContext(recorded, 'transfer-rails'), t.id, to, null));
      } catch (error) {
        if (!(error instanceof DomainException && error.error.kind === 'conflict')) throw error;
      }
    },
  };
}
