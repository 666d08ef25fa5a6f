import type { TransferRecord } from '@app/domain/transfers';
import { presentTransfer } from '@app/read-models/transfers/transfer.presenter';
import type { PublicEventRule, PublicEventTable } from './public-event';

/** Every transfer lifecycle event carries the whole transfer after it (docs/decisions/transfers.md). */
const outflow = (name: string): PublicEventRule => ({
  events: [name],
  data: async (_n, recorded) => presentTransfer((recorded.data as { transfer: TransferRecord }).transfer),
});

/** Decisions §6; a voided id never was a transfer, so it fires nothing. */
export const TRANSFER_PUBLIC_EVENTS: PublicEventTable = {
  TransferCreated: outflow('outflows.created'),
  TransferProcessing: outflow('outflows.updated'),
  TransferSucceeded: outflow('outflows.completed'),
  TransferFailed: outflow('outflows.failed'),
  TransferReversed: outflow('outflows.refunded'),
  TransferCancelled: outflow('outflows.cancelled'),
};
