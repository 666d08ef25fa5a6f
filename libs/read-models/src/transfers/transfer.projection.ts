import type { TransferEvent, TransferRecord } from '@app/domain/transfers';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';

export type TransferDocument = TransferRecord & {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
};

/**
 * GET /transfers. Every lifecycle event carries the whole transfer, so the document is the last
 * one seen; voided ids never were transfers and never appear.
 */
export const transferProjection: Projection<TransferDocument> = {
  name: 'transfers',
  collection: 'transfers',
  // Every filter its list offers, within one organization, mode and entity.
  indexes: [
    ['organization_id', 'mode', 'entity_id'],
    ['organization_id', 'mode', 'entity_id', 'account_id'],
    ['organization_id', 'mode', 'entity_id', 'status'],
  ],
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: [
    'TransferCreated',
    'TransferProcessing',
    'TransferSucceeded',
    'TransferFailed',
    'TransferReversed',
    'TransferCancelled',
  ],
  documentIds: (event) => [String((event.data.transfer as { id: string }).id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as Exclude<TransferEvent, { type: 'TransferVoided' }>;
    if (event.type !== 'TransferCreated' && !current) return current;
    return {
      ...event.data.transfer,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
    };
  },
};
