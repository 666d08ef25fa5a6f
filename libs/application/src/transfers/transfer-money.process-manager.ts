import { accountDecider, type AccountCommand } from '@app/domain/accounts';
import { transferDecider, type AdvanceTarget, type TransferEvent, type TransferRecord } from '@app/domain/transfers';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, systemActor, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import type { ProcessManager } from '../process-managers';
import { MONEY_ATTEMPTS } from './finish-reservation';
import { transferStream } from './streams';

/** An account command without the parts `money()` fills in (distributes over the union). */
type MoneyCommand = AccountCommand extends infer C ? (C extends AccountCommand ? Omit<C, 'account_id' | 'now'> : never) : never;

export const systemContext = (event: RecordedEvent, name: string): CommandContext => ({
  actor: systemActor(event.metadata.organization_id, name),
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
});

/** A refused move means the transfer was moved on by someone else (a sandbox call, the network): nothing to do. */
export async function advanceIfAllowed(store: EventStore, transferId: string, to: AdvanceTarget, context: CommandContext): Promise<void> {
  try {
    await handleCommand(store, transferStream(transferId), transferDecider, { type: 'AdvanceTransfer', transfer_id: transferId, to, now: Date.now() }, context);
  } catch (error) {
    if (!(error instanceof DomainException && error.error.kind === 'conflict')) throw error;
  }
}

/**
 * Money follows the transfer's events, on the account stream, with the transfer id as the hold
 * id: success settles (debits), failure and voiding release, reversal settles (if that had not
 * happened yet) then credits back; a book transfer's success also credits its destination. Each
 * command is a no-op the second time, so a re-run after a crash changes nothing. Book transfers
 * have no network to wait for: they are moved to successful at once.
 */
export function transferMoneyManager(store: EventStore): ProcessManager {
  const money = (accountId: string, command: MoneyCommand, context: CommandContext) =>
    handleCommand(store, accountStream(accountId), accountDecider, { ...command, account_id: accountId, now: Date.now() } as AccountCommand, context, { maxAttempts: MONEY_ATTEMPTS });
  return {
    name: 'transfer-money',
    handles: ['TransferCreated', 'TransferSucceeded', 'TransferFailed', 'TransferReversed', 'TransferVoided'],
    async handle(recorded: RecordedEvent) {
      const event = recorded as unknown as TransferEvent;
      const context = systemContext(recorded, 'transfer-money');
      if (event.type === 'TransferVoided') {
        await money(event.data.account_id, { type: 'ReleaseHold', hold_id: event.data.transfer_id }, context);
        return;
      }
      const t: TransferRecord = event.data.transfer;
      switch (event.type) {
        case 'TransferCreated':
          if (event.data.destination_account_id === null) return;
          await advanceIfAllowed(store, t.id, 'processing', context);
          await advanceIfAllowed(store, t.id, 'successful', context);
          return;
        case 'TransferSucceeded': {
          await money(t.account_id, { type: 'SettleHold', hold_id: t.id }, context);
          const destination = (await store.readStream(transferStream(t.id)))[0]?.data.destination_account_id;
          if (typeof destination === 'string') {
            await money(destination, { type: 'ReceiveBookTransfer', transfer_id: t.id, from_account_id: t.account_id, amount: t.amount, currency: t.currency }, context);
          }
          return;
        }
        case 'TransferFailed':
          await money(t.account_id, { type: 'ReleaseHold', hold_id: t.id }, context);
          return;
        case 'TransferReversed':
          await money(t.account_id, { type: 'SettleHold', hold_id: t.id }, context);
          await money(t.account_id, { type: 'ReverseSettledHold', hold_id: t.id }, context);
          return;
        default:
          return;
      }
    },
  };
}
