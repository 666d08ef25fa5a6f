import type { AccountEvent } from '@app/domain/accounts';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';
import type { AccountView } from './account.presenter';

export interface AccountDocument extends AccountView {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
}

/**
 * The account list (GET /accounts). Money events carry the balance after them, so the document
 * copies it rather than re-deriving holds; the position guard makes a replayed event a no-op.
 */
export const accountProjection: Projection<AccountDocument> = {
  name: 'accounts',
  collection: 'accounts',
  // Every filter its list offers, within one organization and mode.
  indexes: organizationIndexes('entity_id', 'currency'),
  // 1: documents record their mode. 2: collections and refunds move the listed balance (they were
  // missed, so GET /accounts showed the balance before them). Older read models are rebuilt once.
  version: 2,
  handles: [
    'AccountOpened',
    'AccountFunded',
    'FundsHeld',
    'HoldReleased',
    'HoldSettled',
    'HoldReversed',
    'BookTransferReceived',
    'CollectionCredited',
    'CollectionRefunded',
  ],
  documentIds: (event) => [String(event.data.account_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as AccountEvent;
    switch (event.type) {
      case 'AccountOpened': {
        const d = event.data;
        return {
          id: d.account_id,
          organization_id: recorded.metadata.organization_id,
          mode: modeOf(recorded.metadata, d),
          entity_id: d.entity_id,
          type: d.type,
          currency: d.currency,
          display_name: d.display_name,
          service_ban: d.service_ban,
          balance: { available: 0, current: 0 },
          created: d.opened,
          updated: d.opened,
        };
      }
      case 'AccountFunded':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.funded };
      case 'FundsHeld':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.held };
      case 'HoldReleased':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.released };
      case 'HoldSettled':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.settled };
      case 'HoldReversed':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.reversed };
      case 'BookTransferReceived':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.received };
      case 'CollectionCredited':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.credited };
      case 'CollectionRefunded':
        return current && { ...current, balance: event.data.balance_after, updated: event.data.refunded };
      default:
        return current;
    }
  },
};
