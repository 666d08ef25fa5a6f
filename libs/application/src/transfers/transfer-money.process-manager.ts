import type { CommandBus } from '@nestjs/cqrs';
import { accountDecider, openHold } from '@app/domain/accounts';
import { transferDecider, isTransfer, type TransferEvent } from '@app/domain/transfers';
import { systemClock, type Clock } from '@app/platform/clock';
import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { foldStream, reactionContext } from '../command-handling';
import type { ProcessManager } from '@app/platform/log-processing';
import { accountLogReader } from '../accounts/account-log-reader';
import { accountStream } from '../accounts/streams';
import { ApplyTransferMoneyCommand } from './apply-transfer-money/apply-transfer-money.command';
import { transferStream } from './streams';

/** Longer than a request takes to apply the money of the move it made, so the backstop never races it. */
export const MONEY_GRACE_MS = 5_000;

/**
 * The backstop for money: the request that creates or moves a transfer applies its money before
 * answering. This acts only on unfinished work and only after a deadline: a move whose money is
 * already on the account streams (the usual case) costs a fold and nothing else; otherwise, once
 * `graceMs` after the event has passed, the step runs (still a no-op if the request finished it
 * meanwhile, every money command being keyed by the transfer id).
 */
export function transferMoneyManager(
  store: EventStore,
  commands: CommandBus,
  graceMs = MONEY_GRACE_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'transfer-money',
    handles: [
      'TransferCreated',
      'TransferSucceeded',
      'TransferFailed',
      'TransferCancelled',
      'TransferReversed',
      'TransferVoided',
    ],
    async handle(recorded: RecordedEvent, signal: AbortSignal) {
      const event = recorded as unknown as TransferEvent;
      if (await moneyDone(store, event)) return;
      await clock.sleepUntil(recorded.metadata.occurred_at + graceMs, signal);
      await commands.execute(new ApplyTransferMoneyCommand(reactionContext(recorded, 'transfer-money'), event));
    },
  };
}

const holdOpen = async (store: EventStore, accountId: string, holdId: string) => {
  const { state } = await foldStream(store, accountStream(accountId), accountDecider);
  return state.status === 'open' && openHold(state, holdId) !== undefined;
};

/** Whether what the event asks of money is already true: then the request (or an earlier run) did it. */
async function moneyDone(store: EventStore, event: TransferEvent): Promise<boolean> {
  switch (event.type) {
    case 'TransferVoided':
      return !(await holdOpen(store, event.data.account_id, event.data.transfer_id));
    case 'TransferCreated': {
      // Only a book transfer's creation asks for anything: that its request moved it to the end.
      if (event.data.destination_account_id === null) return true;
      const { state } = await foldStream(store, transferStream(event.data.transfer.id), transferDecider);
      return isTransfer(state) && state.status !== 'pending' && state.status !== 'processing';
    }
    // A cancel's release, like a failure's, is done once the account holds the hold no more.
    case 'TransferFailed':
    case 'TransferCancelled':
      return !(await holdOpen(store, event.data.transfer.account_id, event.data.transfer.id));
    case 'TransferSucceeded': {
      const t = event.data.transfer;
      if (await holdOpen(store, t.account_id, t.id)) return false;
      const { state } = await foldStream(store, transferStream(t.id), transferDecider);
      if (!isTransfer(state) || state.destination_account_id === null) return true;
      const from = (state.destination_revision ?? -1) + 1;
      return accountLogReader(
        store,
        state.destination_account_id,
        from,
        (e) => e.type === 'BookTransferReceived' && e.data.transfer_id === t.id,
      )();
    }
    default:
      // A reversal's credit is known only from the account's log; reversals are rare, so it just waits.
      return false;
  }
}
