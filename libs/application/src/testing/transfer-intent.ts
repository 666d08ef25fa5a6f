import type { TransferIntent } from '@app/domain/transfers';
import { newTransferId } from '../transfers/streams';

/** A bank-transfer intent from `accountId` with a fee of 10, for tests that drive the money path directly. */
export const aTransferIntent = (accountId: string, amount: number, uniqueReference = 'ref-1'): TransferIntent => ({
  id: newTransferId(accountId, uniqueReference),
  account_id: accountId,
  entity_id: 'ent_1',
  counterparty_id: 'cpt_1',
  payment_detail_id: 'pmd_1',
  currency: 'USD',
  amount,
  fee: 10,
  payment_type: 'bank-transfer',
  description: null,
  unique_reference: uniqueReference,
  metadata: {},
  created: Date.now(),
  destination_account_id: null,
});
