import { accountDecider, type AccountCommand } from '@app/domain/accounts';
import {
  EVENT_FOR_STATUS,
  isTransfer,
  transferDecider,
  type ActiveTransferState,
  type AdvanceTarget,
  type TransferCommand,
  type TransferEvent,
  type TransferRecord,
  type TransferState,
} from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { clockOf, DomainException, foldStream, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { accountLogReader } from '../accounts/account-log-reader';
import { MONEY_ATTEMPTS } from './transfer-steps';
import { transferStream } from './streams';

/** An account command without the parts `money()` fills in (distributes over the union). */
type MoneyCommand = AccountCommand extends infer C
  ? C extends AccountCommand
    ? Omit<C, 'account_id' | 'now'>
    : never
  : never;

/**
 * Money follows the transfer, whoever moved it: a book transfer credits an account of another
 * entity of the organization, so these steps act at organization level (still recorded as the caller).
 */
const money = (
  store: EventStore,
  accountId: string,
  command: MoneyCommand | (() => Promise<MoneyCommand>),
  context: CommandContext,
) =>
  handleCommand(
    store,
    accountStream(accountId),
    accountDecider,
    async () =>
      ({
        ...(typeof command === 'function' ? await command() : command),
        account_id: accountId,
        now: clockOf(store).now(),
      }) as AccountCommand,
    orgLevel(context),
    { maxAttempts: MONEY_ATTEMPTS },
  );

/**
 * A reversal's credit back, once: the transfer says what its settled hold debited (amount + fee),
 * and whether the account's log holds the credit is read from the revision the reversal was decided
 * at (older logs' reversals, which did not record it: from 0), so the account keeps no closed holds.
 */
function reversal(store: EventStore, t: TransferRecord, fromRevision: number): () => Promise<MoneyCommand> {
  const landed = accountLogReader(
    store,
    t.account_id,
    fromRevision,
    (e) => e.type === 'HoldReversed' && e.data.hold_id === t.id,
  );
  return async () => ({
    type: 'ReverseSettledHold',
    hold_id: t.id,
    total: t.amount + t.fee,
    already_reversed: await landed(),
  });
}

/**
 * A book transfer's credit to its destination, once: whether the destination's log already holds
 * it is read on each attempt, from the revision the transfer was checked on (the credit can only
 * come after it), so the destination's state keeps no list of what it received.
 */
function receipt(
  store: EventStore,
  t: TransferRecord,
  destination: string,
  fromRevision: number,
): () => Promise<MoneyCommand> {
  const landed = accountLogReader(
    store,
    destination,
    fromRevision,
    (e) => e.type === 'BookTransferReceived' && e.data.transfer_id === t.id,
  );
  return async () => ({
    type: 'ReceiveBookTransfer',
    transfer_id: t.id,
    from_account_id: t.account_id,
    amount: t.amount,
    currency: t.currency,
    already_received: await landed(),
  });
}

type Book = Pick<ActiveTransferState, 'destination_account_id' | 'destination_revision'>;

/** The transfer's destination as its stream says (one fold, cached like every other). */
async function bookOf(store: EventStore, transferId: string): Promise<Book | null> {
  const { state } = await foldStream(store, transferStream(transferId), transferDecider);
  return isTransfer(state) ? state : null;
}

const orgLevel = (context: CommandContext): CommandContext => ({
  ...context,
  actor: { ...context.actor, entityId: undefined },
});

/**
 * What a transfer event does to money, on the account streams, with the transfer id as the hold
 * id: success settles (debits), failure, cancellation and voiding release (a void of the pending ledger transaction), reversal settles (if that had not
 * happened yet) then credits back; a book transfer's success also credits its destination. Each
 * command is a no-op the second time, so the request that moved the transfer and the
 * transfer-money process manager (the backstop after a crash) may both run it.
 */
export async function applyMoney(
  store: EventStore,
  event: TransferEvent,
  context: CommandContext,
  known?: Book,
): Promise<void> {
  if (event.type === 'TransferVoided') {
    await money(store, event.data.account_id, { type: 'ReleaseHold', hold_id: event.data.transfer_id }, context);
    return;
  }
  const t: TransferRecord = event.data.transfer;
  switch (event.type) {
    case 'TransferSucceeded': {
      await money(store, t.account_id, { type: 'SettleHold', hold_id: t.id }, context);
      // The caller that just folded the transfer knows its destination; otherwise the stream's fold does.
      const book = known ?? (await bookOf(store, t.id));
      const destination = book?.destination_account_id;
      if (destination)
        await money(store, destination, receipt(store, t, destination, (book.destination_revision ?? -1) + 1), context);
      return;
    }
    case 'TransferFailed':
    case 'TransferCancelled':
      await money(store, t.account_id, { type: 'ReleaseHold', hold_id: t.id }, context);
      return;
    case 'TransferReversed':
      await money(store, t.account_id, { type: 'SettleHold', hold_id: t.id }, context);
      await money(store, t.account_id, reversal(store, t, (event.data.account_revision ?? -1) + 1), context);
      return;
    default:
      return;
  }
}

/** Moves a transfer and applies the move's money before returning (decisions §2: sandbox moves answer after their effect). */
export async function advanceTransfer(
  store: EventStore,
  transferId: string,
  to: AdvanceTarget,
  statusReason: string | null,
  context: CommandContext,
): Promise<TransferRecord | null> {
  const command = async (state: TransferState) => ({
    type: 'AdvanceTransfer' as const,
    transfer_id: transferId,
    to,
    status_reason: statusReason,
    // Read before the reversal is appended, so its credit back lands after this revision.
    ...(to === 'reversed' &&
      isTransfer(state) && {
        account_revision: (await foldStream(store, accountStream(state.transfer.account_id), accountDecider)).revision,
      }),
    now: clockOf(store).now(),
  });
  return (await decideThenMove(store, transferId, command, context))?.transfer ?? null;
}

/**
 * The customer's cancel (decisions §14): one append on the transfer's stream with the revision
 * read, so of a cancel and the rail's move to processing exactly one is appended and the other is
 * refused by the state it re-reads (nothing written). Its hold is then released before answering;
 * the release is keyed by the transfer id, so the transfer-money backstop repeating it is a no-op.
 */
export async function cancelTransfer(
  store: EventStore,
  transferId: string,
  entityId: string,
  reason: string | null,
  context: CommandContext,
): Promise<TransferRecord> {
  const command = () => ({
    type: 'CancelTransfer' as const,
    transfer_id: transferId,
    entity_id: entityId,
    reason,
    now: clockOf(store).now(),
  });
  const known = await decideThenMove(store, transferId, command, context);
  if (!known) throw new Error(`transfer ${transferId} cancelled but not folded`);
  return known.transfer;
}

/** Decides on the transfer's stream, then moves the money its new events call for, before answering. */
async function decideThenMove(
  store: EventStore,
  transferId: string,
  command: (state: TransferState) => TransferCommand | Promise<TransferCommand>,
  context: CommandContext,
): Promise<ActiveTransferState | undefined> {
  const { state, newEvents } = await handleCommand(
    store,
    transferStream(transferId),
    transferDecider,
    command,
    context,
  );
  const known = isTransfer(state) ? state : undefined;
  for (const event of newEvents) await applyMoney(store, event, context, known);
  return known;
}

/** A refused move means the transfer was moved on by someone else (a sandbox call, the network): nothing to do. */
export async function advanceIfAllowed(
  store: EventStore,
  transferId: string,
  to: AdvanceTarget,
  context: CommandContext,
): Promise<void> {
  try {
    await advanceTransfer(store, transferId, to, null, context);
  } catch (error) {
    if (!(error instanceof DomainException && error.error.kind === 'conflict')) throw error;
  }
}

/** Book transfers have no network to wait for: processing then successful, money included. */
export async function settleBookTransfer(
  store: EventStore,
  transferId: string,
  context: CommandContext,
): Promise<void> {
  await advanceIfAllowed(store, transferId, 'processing', orgLevel(context));
  await advanceIfAllowed(store, transferId, 'successful', orgLevel(context));
  // A refused move means the process manager moved it first and may still be applying its money:
  // apply what the transfer's state says here too (idempotent), so the answer never precedes the credit.
  const { state } = await foldStream(store, transferStream(transferId), transferDecider);
  if (isTransfer(state) && state.status !== 'pending')
    await applyMoney(
      store,
      { type: EVENT_FOR_STATUS[state.status], data: { transfer: state.transfer } } as TransferEvent,
      context,
      state,
    );
}
