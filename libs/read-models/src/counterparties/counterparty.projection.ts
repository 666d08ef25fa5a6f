import type { CounterpartyEvent } from '@app/domain';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';
import type { CounterpartyView } from './counterparty.presenter';

export interface CounterpartyDocument extends CounterpartyView {
  readonly organization_id: string;
  readonly mode: Mode;
  [field: string]: unknown;
}

/** GET /counterparties: filters entity_id, type, status; events carry whole snapshots, so no merging here. */
export const counterpartyProjection: Projection<CounterpartyDocument> = {
  name: 'counterparties',
  collection: 'counterparties',
  // Every filter its list offers, within one organization and mode.
  indexes: organizationIndexes('entity_id', 'type', 'status'),
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: ['CounterpartyCreated', 'CounterpartyUpdated', 'CounterpartyDeactivated'],
  documentIds: (event) => [String(event.data.counterparty_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as CounterpartyEvent;
    switch (event.type) {
      case 'CounterpartyCreated': {
        const { counterparty_id, created, ...rest } = event.data;
        return (
          current ?? {
            ...rest,
            id: counterparty_id,
            organization_id: String(recorded.metadata.organization_id),
            mode: modeOf(recorded.metadata),
            status: 'active',
            created,
            updated: created,
          }
        );
      }
      case 'CounterpartyUpdated': {
        const { entity_id, nickname, profile, meta, updated } = event.data;
        return current && { ...current, entity_id, nickname, profile, meta, updated };
      }
      case 'CounterpartyDeactivated':
        return current && { ...current, status: 'inactive', updated: event.data.deactivated };
      default:
        return current;
    }
  },
};
