import { accountDecider, heldTransferFor } from '@app/domain/accounts';
import {
  isTransfer,
  transferDecider,
  type TransferIntent,
  type TransferRecord,
  type TransferState,
} from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { clockOf, DomainException, foldStream, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { finishLegacyTransfer } from './legacy-reservations';
import { isLegacyTransferId, transferStream } from './streams';

/** Every writer on one account contends for its stream; each round at least one wins. */
export const MONEY_ATTEMPTS = 200;

/**
 * The two steps that create a transfer (docs/decisions/transfers.md, "Creation"), each one append
 * to one stream and a no-op the second time:
 * 1. `holdMoney`: the money decision. `FundsHeld` on the account carries the whole transfer, keyed
 *    by its id; while it is open, the account holds no other transfer with its reference. Refused,
 *    nothing is written anywhere.
 * 2. `createTransfer`: `TransferCreated` on the stream named by the account and the reference; the
 *    first transfer of the reference takes it for good, so a duplicate finds the original there.
 * Returns the transfer the hold step found holding the reference: this one, or the original a
 * duplicate must answer with.
 */
export async function holdMoney(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
  origin: 'fresh' | 'read',
): Promise<TransferIntent> {
  const hold = async () => ({
    type: 'PlaceHold' as const,
    account_id: intent.account_id,
    hold_id: intent.id,
    amount: intent.amount,
    fee: intent.fee,
    // A fresh id is known to nobody else until this hold is in the log; an id found in the log (an
    // older version's reservation) may have been held and closed already.
    origin_done: origin === 'read' && (await transferOf(store, intent.id)).status !== 'none',
    transfer: intent,
    now: clockOf(store).now(),
  });
  const { state } = await handleCommand(store, accountStream(intent.account_id), accountDecider, hold, context, {
    maxAttempts: MONEY_ATTEMPTS,
  });
  const holder = state.status === 'open' ? heldTransferFor(state, intent.unique_reference) : undefined;
  return (holder as TransferIntent | undefined) ?? intent;
}

/** The transfer the stream holds after this creation: this one, or the reference's first. */
export async function createTransfer(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<TransferRecord> {
  const { state } = await handleCommand(
    store,
    transferStream(intent.id),
    transferDecider,
    { type: 'CreateTransfer', intent, now: clockOf(store).now() },
    context,
    { entityId: intent.entity_id },
  );
  // An older log bound the reference to a transfer in a stream of its own (migrated at start).
  const transfer =
    state.status === 'elsewhere'
      ? await transferById(store, state.transfer_id)
      : isTransfer(state)
        ? state.transfer
        : null;
  if (!transfer) throw new Error(`transfer ${intent.id} was voided`);
  return ofReference(transfer, intent.account_id, intent.unique_reference);
}

/**
 * Both steps for a fresh intent, as a request runs them: the transfer its reference went to, and
 * whether that is this one (201) or an original this request duplicates (409).
 */
export async function holdAndCreate(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<{ transfer: TransferRecord; created: boolean }> {
  const holder = await holdMoney(store, intent, context, 'fresh');
  // Another request with this reference holds its transfer: this one is its duplicate.
  if (holder.id !== intent.id) return { transfer: await finishHeld(store, holder, context), created: false };
  const transfer = await createTransfer(store, intent, context);
  if (transfer.id === intent.id) return { transfer, created: true };
  // The original was created and its hold closed between our read of the stream and our hold:
  // ours gives its money back, and the answer is the original.
  await releaseHold(store, intent, context);
  return { transfer, created: false };
}

/** Two references sharing 80 bits of SHA-256 would share a stream: refused loudly, never answered with the other's transfer. */
export function ofReference(transfer: TransferRecord, accountId: string, uniqueReference: string): TransferRecord {
  if (transfer.account_id !== accountId || transfer.unique_reference !== uniqueReference)
    throw new Error(`transfer stream of ${transfer.id} is keyed by another reference`);
  return transfer;
}

/** A hold whose reference went to another transfer gives its money back. */
export async function releaseHold(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<void> {
  const release = {
    type: 'ReleaseHold' as const,
    account_id: intent.account_id,
    hold_id: intent.id,
    now: clockOf(store).now(),
  };
  await handleCommand(store, accountStream(intent.account_id), accountDecider, release, context, {
    maxAttempts: MONEY_ATTEMPTS,
  });
}

/**
 * Step 2 for a held transfer whose request may have died (a duplicate, the recovery process
 * manager): the transfer its reference went to, this one or another (this hold is then given
 * back); null only for an older log's voided id.
 */
export async function finishTransfer(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<TransferRecord | null> {
  if (isLegacyTransferId(intent.id)) return finishLegacyTransfer(store, intent, context);
  const transfer = await createTransfer(store, intent, context);
  if (transfer.id !== intent.id) await releaseHold(store, intent, context);
  return transfer;
}

/** `finishTransfer` for a request's duplicate: the original it answers with, which an open hold always has. */
export async function finishHeld(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<TransferRecord> {
  const transfer = await finishTransfer(store, intent, context);
  if (!transfer) throw new Error(`transfer ${intent.id} of reference ${intent.unique_reference} was voided`);
  return transfer;
}

/** The state of the transfer's stream; for a keyed id, the stream may hold another id of its reference. */
export const transferOf = async (store: EventStore, transferId: string): Promise<TransferState> =>
  (await foldStream(store, transferStream(transferId), transferDecider)).state;

/** The transfer with this id, or null. */
export async function transferById(store: EventStore, transferId: string): Promise<TransferRecord | null> {
  const state = await transferOf(store, transferId);
  return isTransfer(state) && state.transfer.id === transferId ? state.transfer : null;
}

export const isInsufficientFunds = (error: unknown) =>
  error instanceof DomainException && error.error.code === 'insufficient_funds';
