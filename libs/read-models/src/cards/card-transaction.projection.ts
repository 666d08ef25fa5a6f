import type { CardTransactionRecord } from '@app/domain/cards';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';

export type CardTransactionDocument = CardTransactionRecord & {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
};

/** GET /card-transactions/{card_id}: every card event about a transaction carries the whole record after it. */
export const cardTransactionProjection: Projection<CardTransactionDocument> = {
  name: 'card-transactions',
  collection: 'card_transactions',
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [['organization_id', 'mode', 'card_id']],
  handles: [
    'CardAuthorizationHeld',
    'CardAuthorizationDeclined',
    'CardHoldDeclined',
    'CardAuthorizationApproved',
    'CardTransactionCaptured',
    'CardTransactionReversed',
  ],
  documentIds: (event) => [String((event.data.transaction as { id: string }).id)],
  evolve(_current, recorded: RecordedEvent) {
    const transaction = recorded.data.transaction as CardTransactionRecord;
    return { ...transaction, organization_id: recorded.metadata.organization_id, mode: modeOf(recorded.metadata) };
  },
};
