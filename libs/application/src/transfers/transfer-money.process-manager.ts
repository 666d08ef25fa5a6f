import type { TransferEvent } from '@app/domain/transfers';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { systemActor, type CommandContext } from '../command-handling';
import type { ProcessManager } from '../process-managers';
import { applyMoney, settleBookTransfer } from './transfer-money';

export const systemContext = (event: RecordedEvent, name: string): CommandContext => ({
  actor: systemActor(event.metadata.organization_id, name),
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
});

/**
 * The backstop for money: the request that creates or moves a transfer applies its money before
 * answering; if it died midway, this applies it from the log. Every step is a no-op the second time.
 */
export function transferMoneyManager(store: EventStore): ProcessManager {
  return {
    name: 'transfer-money',
    handles: ['TransferCreated', 'TransferSucceeded', 'TransferFailed', 'TransferReversed', 'TransferVoided'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as TransferEvent;
      const context = systemContext(recorded, 'transfer-money');
      if (event.type !== 'TransferCreated') return applyMoney(store, event, context);
      if (event.data.destination_account_id !== null) await settleBookTransfer(store, event.data.transfer.id, context);
    },
  };
}
