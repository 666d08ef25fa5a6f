import type { PaymentIntentEvent, PaymentIntentRecord } from '@app/domain/collections';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';

export type PaymentIntentDocument = PaymentIntentRecord & {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
};

/** GET /payment-intents: every event carries the whole intent, so the document is the last one seen. */
export const paymentIntentProjection: Projection<PaymentIntentDocument> = {
  name: 'payment-intents',
  collection: 'payment_intents',
  // Every filter its list offers, within one organization and mode (a `created` range is checked on the rows).
  indexes: organizationIndexes('entity_id', 'status', 'reference', 'currency', 'account_id'),
  handles: [
    'PaymentIntentCreated',
    'PaymentIntentConfirmed',
    'PaymentIntentCompleted',
    'PaymentIntentFailed',
    'PaymentIntentCancelled',
    'PaymentIntentRefunded',
  ],
  documentIds: (event) => [String((event.data.intent as { id: string }).id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as PaymentIntentEvent;
    if (event.type !== 'PaymentIntentCreated' && !current) return current;
    return {
      ...event.data.intent,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
    };
  },
};
