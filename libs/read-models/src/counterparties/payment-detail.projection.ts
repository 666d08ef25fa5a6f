import type { CounterpartyEvent, PaymentDetailData } from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';

export const PAYMENT_DETAILS = 'payment_details';

/**
 * The transfer-ready record of a payment detail: everything a payout needs to decide whether it
 * may go (method, currency, country, counterparty status, owner, book destination) without
 * reading the counterparty's stream.
 */
export interface PaymentDetailDocument {
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly counterparty_id: string;
  /** Follows the counterparty: `inactive` once it is deactivated. */
  readonly counterparty_status: 'active' | 'inactive';
  readonly status: 'active' | 'inactive';
  readonly payment_method: PaymentDetailData['payment_method'];
  readonly currency: string;
  readonly country: string;
  /** For `book-transfer`: the account the money lands in; null otherwise. */
  readonly destination_account_id: string | null;
  readonly block: Record<string, unknown>;
  readonly created: number;
  readonly updated: number;
  [field: string]: unknown;
}

function added(d: PaymentDetailData, organizationId: string, mode: Mode): PaymentDetailDocument {
  const { payment_detail_id, counterparty_id, entity_id, payment_method, currency, country, added: at, ...rest } = d;
  const blockName = Object.keys(rest)[0];
  return {
    id: payment_detail_id,
    organization_id: organizationId,
    mode,
    entity_id,
    counterparty_id,
    counterparty_status: 'active',
    status: 'active',
    payment_method,
    currency,
    country,
    destination_account_id: d.payment_method === 'book-transfer' ? d.book.account_id : null,
    block: { [blockName]: (rest as Record<string, unknown>)[blockName] },
    created: at,
    updated: at,
  };
}

export const paymentDetailProjection: Projection<PaymentDetailDocument> = {
  name: 'payment-details',
  collection: PAYMENT_DETAILS,
  // Every filter its list offers, with organization and mode first (see read-index.ts).
  indexes: [['organization_id', 'mode', 'counterparty_id']],
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: ['PaymentDetailAdded', 'CounterpartyDeactivated', 'CounterpartyUpdated'],
  documentIds(recorded) {
    const event = recorded as unknown as CounterpartyEvent;
    if (event.type === 'PaymentDetailAdded') return [event.data.payment_detail_id];
    if (event.type === 'CounterpartyDeactivated' || event.type === 'CounterpartyUpdated')
      return event.data.payment_detail_ids;
    return [];
  },
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as CounterpartyEvent;
    switch (event.type) {
      case 'PaymentDetailAdded':
        return current ?? added(event.data, String(recorded.metadata.organization_id), modeOf(recorded.metadata));
      case 'CounterpartyDeactivated':
        return (
          current && {
            ...current,
            counterparty_status: 'inactive',
            status: 'inactive',
            updated: event.data.deactivated,
          }
        );
      case 'CounterpartyUpdated':
        return current && current.entity_id !== event.data.entity_id
          ? { ...current, entity_id: event.data.entity_id, updated: event.data.updated }
          : current;
      default:
        return current;
    }
  },
};
