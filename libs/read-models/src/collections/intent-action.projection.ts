import type { IntentActionEvent, IntentActionRecord, PaymentIntentEvent } from '@app/domain/collections';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';

export type IntentActionDocument = IntentActionRecord & {
  readonly refunded_amount: number;
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
};

type Refunded = Extract<PaymentIntentEvent, { type: 'PaymentIntentRefunded' }>;
/** The claim of an acquirer call changes nothing the API shows, so it is not handled. */
type Handled = Exclude<IntentActionEvent, { type: 'IntentActionAuthorizationStarted' }>;

/**
 * GET /intent-actions: the action's last state, and `refunded_amount` raised by each refund of
 * its intent (refunds are recorded on the intent's stream).
 */
export const intentActionProjection: Projection<IntentActionDocument> = {
  name: 'intent-actions',
  collection: 'intent_actions',
  // Every filter its list offers, within one organization and mode (a `created` range is checked on the rows).
  indexes: organizationIndexes(
    'entity_id',
    'currency',
    'reference',
    'payment_type',
    'status',
    'payment_intent_id',
    'account_id',
  ),
  handles: [
    'IntentActionCreated',
    'IntentActionAuthenticated',
    'IntentActionCompleted',
    'IntentActionFailed',
    'PaymentIntentRefunded',
  ],
  documentIds: (event) => {
    if (event.type === 'PaymentIntentRefunded')
      return [(event.data as Refunded['data']).intent.intent_action_id ?? ''].filter(Boolean);
    return [String((event.data.action as { id: string }).id)];
  },
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as Handled | Refunded;
    if (event.type === 'PaymentIntentRefunded')
      return current && { ...current, refunded_amount: current.refunded_amount + event.data.refund.amount };
    if (event.type !== 'IntentActionCreated' && !current) return current;
    return {
      ...event.data.action,
      refunded_amount: current?.refunded_amount ?? 0,
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata),
    };
  },
};
