import { accountDecider, heldTransferFor } from '@app/domain/accounts';
import { isTransfer, transferDecider, transferReferenceDecider, type TransferIntent, type TransferRecord, type TransferState } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, foldStream, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { transferReferenceStream, transferStream } from './streams';

/** Every writer on one account contends for its stream; each round at least one wins. */
export const MONEY_ATTEMPTS = 200;

/**
 * The steps that create a transfer (docs/decisions/transfers.md, "Creation"), each one append to one
 * stream and a no-op the second time:
 * 1. `holdMoney`: the money decision. `FundsHeld` on the account carries the whole transfer, keyed
 *    by its id; while it is open, the account holds no other transfer with its reference. Refused,
 *    nothing is written anywhere: nothing to void or give back.
 * 2. `claimReference`: the reference stream (appended with the revision read) binds the account's
 *    `unique_reference` to the transfer for good, so a duplicate finds it after the hold closed.
 * 3. `createTransfer`: `transfer-<id>`, created with `no_stream`.
 * Returns the transfer the hold step found holding the reference: this one, or the original a
 * duplicate must answer with.
 */
export async function holdMoney(store: EventStore, intent: TransferIntent, context: CommandContext, origin: 'fresh' | 'read'): Promise<TransferIntent> {
  const hold = async () => ({
    type: 'PlaceHold' as const,
    account_id: intent.account_id,
    hold_id: intent.id,
    amount: intent.amount,
    fee: intent.fee,
    // A fresh id is known to nobody else until this hold is in the log; an id found in the log (a
    // claimed reference, an older version's reservation) may have been held and closed already.
    origin_done: origin === 'read' && (await transferOf(store, intent.id)).status !== 'none',
    transfer: intent,
    now: Date.now(),
  });
  const { state } = await handleCommand(store, accountStream(intent.account_id), accountDecider, hold, context, { maxAttempts: MONEY_ATTEMPTS });
  const holder = state.status === 'open' ? heldTransferFor(state, intent.unique_reference) : undefined;
  return (holder as TransferIntent | undefined) ?? intent;
}

/** The transfer the reference is bound to after this claim: this intent, or the one that claimed it first. */
export async function claimReference(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<TransferIntent> {
  const stream = transferReferenceStream(intent.account_id, intent.unique_reference);
  for (;;) {
    const { state } = await handleCommand(store, stream, transferReferenceDecider, { type: 'ReserveTransferReference', intent, now: Date.now() }, context, { entityId: intent.entity_id });
    if (state.status !== 'reserved') throw new Error(`reference ${intent.unique_reference} not reserved`);
    if (state.transfer_id === intent.id || (await transferOf(store, state.transfer_id)).status !== 'voided') return state.intent;
    // Older logs only: a voided id (its hold was refused) whose release a crash cut short frees the reference.
    await handleCommand(store, stream, transferReferenceDecider, { type: 'ReleaseTransferReference', transfer_id: state.transfer_id, now: Date.now() }, context);
  }
}

export async function createTransfer(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<TransferRecord> {
  const { state } = await handleCommand(store, transferStream(intent.id), transferDecider, { type: 'CreateTransfer', intent, now: Date.now() }, context, { entityId: intent.entity_id });
  if (!isTransfer(state)) throw new Error(`transfer ${intent.id} was voided`);
  return state.transfer;
}

/** A hold whose reference went to another transfer gives its money back. */
export async function releaseHold(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<void> {
  const release = { type: 'ReleaseHold' as const, account_id: intent.account_id, hold_id: intent.id, now: Date.now() };
  await handleCommand(store, accountStream(intent.account_id), accountDecider, release, context, { maxAttempts: MONEY_ATTEMPTS });
}

/**
 * Steps 2 and 3 for a held transfer whose request may have died (a duplicate, the recovery process
 * manager): the transfer, or null when its reference went to another one (its hold is then given
 * back). A reservation an older version wrote may have no hold yet: it is held first (refused: the
 * 422 is thrown and the reservation stays; a retry after funding finishes it).
 */
export async function finishTransfer(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<TransferRecord | null> {
  const existing = await transferOf(store, intent.id);
  if (isTransfer(existing)) return existing.transfer;
  if (existing.status === 'voided') return null;
  const claimed = await claimReference(store, intent, context);
  if (claimed.id !== intent.id) {
    await releaseHold(store, intent, context);
    return null;
  }
  const { state: account } = await foldStream(store, accountStream(intent.account_id), accountDecider);
  if (account.status === 'open' && account.holds[intent.id] === undefined) await holdMoney(store, intent, context, 'read');
  return createTransfer(store, intent, context);
}

export const transferOf = async (store: EventStore, transferId: string): Promise<TransferState> => (await foldStream(store, transferStream(transferId), transferDecider)).state;

export const isInsufficientFunds = (error: unknown) => error instanceof DomainException && error.error.code === 'insufficient_funds';
