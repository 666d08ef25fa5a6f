import type { OpenAccountState } from '@app/domain/accounts';
import { transferFee, type FeeSchedule, type TransferIntent } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import type { CommandContext } from '../../command-handling';
import { findPaymentDetail } from '../../counterparties/payment-detail-index';
import { newTransferId } from '../streams';
import { bookDestination, checkFunds, checkRoute, paymentDetailNotFound } from '../transfer-checks';
import type { CreateTransferInput } from './create-transfer.command';

/** Every check that can refuse runs here, on folded streams, before anything is written. */
export async function transferIntent(store: EventStore, fees: FeeSchedule, context: CommandContext, account: OpenAccountState, input: CreateTransferInput): Promise<TransferIntent> {
  const detail = await findPaymentDetail(store, context.actor, input.payment_detail_id);
  if (!detail) throw paymentDetailNotFound(input.payment_detail_id);
  checkRoute(account, input.payment_type, detail);
  const destination = input.payment_type === 'book-transfer' ? await bookDestination(store, context.actor, account, detail) : null;
  const fee = transferFee(fees, input.payment_type, input.amount);
  checkFunds(account, input.amount, fee);
  return {
    id: newTransferId(account.id, input.unique_reference),
    account_id: account.id,
    entity_id: account.entity_id,
    counterparty_id: detail.counterparty_id,
    payment_detail_id: detail.id,
    currency: account.currency,
    amount: input.amount,
    fee,
    payment_type: input.payment_type,
    description: input.description,
    unique_reference: input.unique_reference,
    metadata: input.metadata,
    created: Date.now(),
    destination_account_id: destination?.id ?? null,
    ...(destination && { destination_revision: destination.revision }),
  };
}
