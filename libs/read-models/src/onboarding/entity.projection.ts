import {
  ENTITY_EVENT_TYPES,
  evolveEntity,
  initialEntityState,
  type EntityEvent,
  type ExistingEntity,
} from '@app/domain/onboarding';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';

export interface EntityDocument {
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  /** The entity itself: tokens filter on entity_id like every other entity-owned document. */
  readonly entity_id: string;
  readonly type: 'individual' | 'business';
  readonly status: ExistingEntity['status'];
  readonly entity: ExistingEntity;
  [field: string]: unknown;
}

/**
 * The entity list folds the same decider state as GET /entities/{id}, so list items and the
 * single resource can never disagree; filter fields sit at the top level for the store.
 */
export const entityProjection: Projection<EntityDocument> = {
  name: 'entities',
  collection: 'entities',
  // Every filter its list offers, within one organization and mode.
  indexes: organizationIndexes('entity_id', 'type', 'status'),
  // 1: documents record their mode; older read models are rebuilt once to gain it.
  version: 1,
  handles: ENTITY_EVENT_TYPES,
  documentIds: (event) => [String(event.data.entity_id)],
  evolve(current, recorded: RecordedEvent) {
    const entity = evolveEntity(current?.entity ?? initialEntityState, recorded as unknown as EntityEvent);
    if (entity.status === 'none') return current;
    return {
      id: entity.id,
      organization_id: current?.organization_id ?? recorded.metadata.organization_id,
      mode: current?.mode ?? modeOf(recorded.metadata, recorded.data),
      entity_id: entity.id,
      type: entity.type,
      status: entity.status,
      entity,
    };
  },
};
