import { accountDecider, openHold } from '@app/domain/accounts';
import { isTransfer, transferReferenceDecider, type TransferIntent, type TransferRecord } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { clockOf, foldStream, handleCommand, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { transferReferenceStream } from './streams';
import { createTransfer, holdMoney, releaseHold, transferOf } from './transfer-steps';

/**
 * Logs written before keyed transfer streams (docs/decisions/transfers.md, "Older logs") bound a
 * reference to a transfer id in a reservation stream and kept the transfer in `transfer-<id>`.
 * Nothing new is written this way; these functions finish a creation an older version left between
 * its steps, as that version would have: once at start, by the migration that moves each such
 * reference to its keyed stream (legacy-migration.ts), and by the recovery process manager. No
 * request reads a reservation stream.
 */

/** The transfer the reference is bound to after this claim: this intent, or the one that claimed it first. */
async function claimReference(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<TransferIntent> {
  const stream = transferReferenceStream(intent.account_id, intent.unique_reference);
  for (;;) {
    const { state } = await handleCommand(
      store,
      stream,
      transferReferenceDecider,
      { type: 'ReserveTransferReference', intent, now: clockOf(store).now() },
      context,
      { entityId: intent.entity_id },
    );
    if (state.status !== 'reserved') throw new Error(`reference ${intent.unique_reference} not reserved`);
    if (state.transfer_id === intent.id || (await transferOf(store, state.transfer_id)).status !== 'voided')
      return state.intent;
    // A voided id (its hold was refused) whose release a crash cut short frees the reference.
    await handleCommand(
      store,
      stream,
      transferReferenceDecider,
      { type: 'ReleaseTransferReference', transfer_id: state.transfer_id, now: clockOf(store).now() },
      context,
    );
  }
}

/**
 * Claim, hold if the older version had not (refused: the 422 is thrown and the reservation stays; a
 * retry after funding finishes it), create; null when the id was voided or its reference went to
 * another transfer (its hold is then given back).
 */
export async function finishLegacyTransfer(
  store: EventStore,
  intent: TransferIntent,
  context: CommandContext,
): Promise<TransferRecord | null> {
  const existing = await transferOf(store, intent.id);
  if (isTransfer(existing)) return existing.transfer;
  if (existing.status === 'voided') return null;
  const claimed = await claimReference(store, intent, context);
  if (claimed.id !== intent.id) {
    await releaseHold(store, intent, context);
    return null;
  }
  const { state: account } = await foldStream(store, accountStream(intent.account_id), accountDecider);
  if (account.status === 'open' && !openHold(account, intent.id)) await holdMoney(store, intent, context, 'read');
  return createTransfer(store, intent, context);
}
