import type { TransferRecord } from '@app/domain/transfers';
import type { TransferBody } from './transfer.schema';

/** The transfer as the API shows it (decisions §6, its schema in transfer.schema.ts); webhook payloads use the same function. */
export const presentTransfer = (t: TransferRecord): TransferBody => ({
  id: t.id,
  object: 'transfer',
  account_id: t.account_id,
  entity_id: t.entity_id,
  counterparty_id: t.counterparty_id,
  payment_detail_id: t.payment_detail_id,
  direction: 'outflow',
  currency: t.currency,
  amount: t.amount,
  fee: t.fee,
  status: t.status,
  status_reason: t.status_reason,
  payment_type: t.payment_type,
  description: t.description,
  unique_reference: t.unique_reference,
  metadata: t.metadata,
  created: t.created,
  updated: t.updated,
});
