import { accountDecider } from '@app/domain/accounts';
import { isTransfer, transferDecider, transferReferenceDecider, type TransferIntent, type TransferRecord } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { transferReferenceStream, transferStream } from './streams';

/** Every writer on one account contends for its stream; each round at least one wins. */
export const MONEY_ATTEMPTS = 200;

export type Finished = { readonly outcome: 'created'; readonly transfer: TransferRecord } | { readonly outcome: 'voided' };

const isCode = (error: unknown, code: string) => error instanceof DomainException && error.error.code === code;

/**
 * Drives a reserved transfer id to its end: hold (amount + fee, keyed by the id) then create the
 * transfer, or, when the hold is refused, void the id and free the reference. Every step is
 * idempotent, so a duplicate request, a retry after a crash and the recovery process manager may
 * all run it at once. The transfer stream decides races: its first event is either
 * TransferCreated or TransferVoided, never both, and a hold on a voided id is given back.
 */
export async function finishReservation(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<Finished> {
  const now = Date.now();
  try {
    await handleCommand(store, accountStream(intent.account_id), accountDecider, async () => placeHold(intent, await isDecided(store, intent.id), now), context, {
      maxAttempts: MONEY_ATTEMPTS,
    });
  } catch (error) {
    if (!isCode(error, 'insufficient_funds')) throw error;
    return voidReservation(store, intent, context);
  }
  try {
    const { state } = await handleCommand(store, transferStream(intent.id), transferDecider, { type: 'CreateTransfer', intent, now }, context, { entityId: intent.entity_id });
    if (!isTransfer(state)) throw new Error(`transfer ${intent.id} not created`);
    return { outcome: 'created', transfer: state.transfer };
  } catch (error) {
    if (!isCode(error, 'transfer_voided')) throw error;
    // Another driver saw the hold refused and voided the id first: give back the hold placed here.
    await giveBack(store, intent, context);
    return { outcome: 'voided' };
  }
}

const placeHold = (intent: TransferIntent, origin_done: boolean, now: number) =>
  ({ type: 'PlaceHold', account_id: intent.account_id, hold_id: intent.id, amount: intent.amount, fee: intent.fee, origin_done, now }) as const;

/**
 * Whether the transfer stream has its first event (created or voided). Read after the account was
 * folded (the command is built per attempt): the hold was placed before the transfer was created,
 * and every close of it follows an event here, so an id decided here is either held already or
 * closed (and gone from the account state), and holding it again would keep money held forever.
 */
async function isDecided(store: EventStore, transferId: string): Promise<boolean> {
  return (await store.readStream(transferStream(transferId))).length > 0;
}

async function voidReservation(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<Finished> {
  const { state } = await handleCommand(
    store,
    transferStream(intent.id),
    transferDecider,
    { type: 'VoidTransfer', transfer_id: intent.id, account_id: intent.account_id, reason: 'insufficient_funds', now: Date.now() },
    context,
    { entityId: intent.entity_id },
  );
  // Another driver held and created it meanwhile: the transfer stands.
  if (isTransfer(state)) return { outcome: 'created', transfer: state.transfer };
  await giveBack(store, intent, context);
  return { outcome: 'voided' };
}

/** A voided id never keeps money held, and its reference may be claimed again. */
export async function giveBack(store: EventStore, intent: TransferIntent, context: CommandContext): Promise<void> {
  await handleCommand(store, accountStream(intent.account_id), accountDecider, { type: 'ReleaseHold', account_id: intent.account_id, hold_id: intent.id, now: Date.now() }, context, {
    maxAttempts: MONEY_ATTEMPTS,
  });
  await handleCommand(
    store,
    transferReferenceStream(intent.account_id, intent.unique_reference),
    transferReferenceDecider,
    { type: 'ReleaseTransferReference', transfer_id: intent.id, now: Date.now() },
    context,
  );
}
