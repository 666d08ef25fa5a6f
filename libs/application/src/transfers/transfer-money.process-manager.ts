import type { CommandBus } from '@nestjs/cqrs';
import type { TransferEvent } from '@app/domain/transfers';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { reactionContext } from '../command-handling';
import type { ProcessManager } from '../process-managers';
import { ApplyTransferMoneyCommand } from './apply-transfer-money/apply-transfer-money.command';

/**
 * The backstop for money: the request that creates or moves a transfer applies its money before
 * answering; if it died midway, this applies it from the log. Every step is a no-op the second time.
 */
export function transferMoneyManager(commands: CommandBus): ProcessManager {
  return {
    name: 'transfer-money',
    handles: ['TransferCreated', 'TransferSucceeded', 'TransferFailed', 'TransferReversed', 'TransferVoided'],
    async handle(recorded: RecordedEvent) {
      await commands.execute(new ApplyTransferMoneyCommand(reactionContext(recorded, 'transfer-money'), recorded as unknown as TransferEvent));
    },
  };
}
