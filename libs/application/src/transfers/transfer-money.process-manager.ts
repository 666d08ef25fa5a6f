import type { CommandBus } from '@nestjs/cqrs';
import type { TransferEvent } from '@app/domain/transfers';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { systemActor, type CommandContext } from '../command-handling';
import type { ProcessManager } from '../process-managers';
import { ApplyTransferMoneyCommand } from './apply-transfer-money/apply-transfer-money.command';

export const systemContext = (event: RecordedEvent, name: string): CommandContext => ({
  actor: systemActor(event.metadata.organization_id, name),
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
});

/**
 * The backstop for money: the request that creates or moves a transfer applies its money before
 * answering; if it died midway, this applies it from the log. Every step is a no-op the second time.
 */
export function transferMoneyManager(commands: CommandBus): ProcessManager {
  return {
    name: 'transfer-money',
    handles: ['TransferCreated', 'TransferSucceeded', 'TransferFailed', 'TransferReversed', 'TransferVoided'],
    async handle(recorded: RecordedEvent) {
      await commands.execute(new ApplyTransferMoneyCommand(systemContext(recorded, 'transfer-money'), recorded as unknown as TransferEvent));
    },
  };
}
