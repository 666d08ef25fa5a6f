import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { accountDecider, heldTransferFor, type OpenAccountState } from '@app/domain/accounts';
import {
  isTransfer,
  transferDecider,
  type FeeSchedule,
  type TransferIntent,
  type TransferRecord,
} from '@app/domain/transfers';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type CommandContext } from '../../command-handling';
import { accountStream, isAccountId } from '../../accounts/streams';
import { transferStream, transferStreamFor } from '../streams';
import { settleBookTransfer } from '../transfer-money';
import { finishHeld, holdAndCreate, ofReference, transferById } from '../transfer-steps';
import { CreateTransferCommand, type CreatedTransfer } from './create-transfer.command';
import { transferIntent } from './transfer-intent';

export const TRANSFER_FEES = Symbol('TRANSFER_FEES');

/**
 * Check (transfer-intent.ts), hold the money (the one decision; the hold carries the transfer), create the transfer on
 * the stream its account and reference name: two idempotent steps (transfer-steps.ts). A refusal
 * writes nothing. A repeat of the reference answers 409 with the original, finished here if its
 * request died. An older log's references are on their keyed streams too (migrated once at start),
 * so a creation reads no reservation stream.
 */
@CommandHandler(CreateTransferCommand)
export class CreateTransferHandler implements ICommandHandler<CreateTransferCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(TRANSFER_FEES) private readonly fees: FeeSchedule,
  ) {}

  async execute({ context, input }: CreateTransferCommand): Promise<CreatedTransfer> {
    const account = await this.sourceAccount(context, input.account_id);
    // Before any other check: the balance a repeat spent, or a payment detail since removed, must
    // not turn a duplicate into a different error.
    // One read answers every earlier transfer of the reference, an older log's too (its reference
    // was moved to this stream at start: legacy-migration.ts).
    const earlier = await loadAggregate(
      this.store,
      transferStreamFor(account.id, input.unique_reference),
      transferDecider,
      context,
    );
    const found =
      earlier?.state.status === 'elsewhere'
        ? await transferById(this.store, earlier.state.transfer_id)
        : earlier && isTransfer(earlier.state)
          ? earlier.state.transfer
          : null;
    if (found) return this.answer(context, ofReference(found, account.id, input.unique_reference), false);
    // Held but not yet created (its request is between the two steps, or died there).
    const open = heldTransferFor(account, input.unique_reference) as TransferIntent | undefined;
    if (open) return this.answer(context, await finishHeld(this.store, open, context), false);
    const intent = await transferIntent(this.store, this.fees, context, account, input);
    const { transfer, created } = await holdAndCreate(this.store, intent, context);
    return this.answer(context, transfer, created);
  }

  /** The source account as the caller may see it: 404 when absent or another organization's, 403 another entity's. */
  private async sourceAccount(context: CommandContext, accountId: string): Promise<OpenAccountState> {
    const loaded = isAccountId(accountId)
      ? await loadAggregate(this.store, accountStream(accountId), accountDecider, context)
      : null;
    if (!loaded || loaded.state.status !== 'open') throw new DomainException(notFound('account', accountId));
    return loaded.state;
  }

  /** A book transfer settles before the request answers: both balances already show it. */
  private async answer(context: CommandContext, transfer: TransferRecord, created: boolean): Promise<CreatedTransfer> {
    if (transfer.payment_type !== 'book-transfer') return { transfer, created };
    await settleBookTransfer(this.store, transfer.id, context);
    const loaded = await loadAggregate(this.store, transferStream(transfer.id), transferDecider, context);
    return { transfer: loaded && isTransfer(loaded.state) ? loaded.state.transfer : transfer, created };
  }
}
