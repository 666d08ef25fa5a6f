import { publicEvent, redact, type PublicEvent } from '@app/application/admin/list-organization-events/public-event';
import { modeOf, type Mode } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import { organizationIndexes } from '@app/platform/read-store/read-index';

export interface EventIndexDocument {
  [field: string]: unknown;
  /** `evp_` + the log position, zero-padded: the read store orders by id, so id order is log order. */
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly type: string;
  readonly resource_type: string;
  readonly resource_id: string;
  readonly entity_id: string | null;
  readonly position: number;
  readonly created: number;
  /** The event as shown (redacted), so a page is one query and no read of the log. */
  readonly event: PublicEvent;
}

export const eventIndexId = (position: number) => `evp_${String(position).padStart(16, '0')}`;

/**
 * `GET /events` (decisions §10): one document per resource event, keyed by organization, mode,
 * type, resource, entity, position and time, so a page is one indexed query filtered by the caller's
 * organization and mode from a position cursor, never a scan of the whole log. Handles every event
 * type (`*`); the platform's own streams (reservations, indexes, deliveries) are left out.
 */
export const eventIndexProjection: Projection<EventIndexDocument> = {
  name: 'event-index',
  collection: 'events',
  // Every filter GET /events offers, within one organization and mode (a `created` range is checked on the rows).
  indexes: organizationIndexes('type', 'resource_type', 'resource_id', 'entity_id'),
  handles: ['*'],
  documentIds: (event) => (publicEvent(event) ? [eventIndexId(event.position)] : []),
  evolve(current, recorded: RecordedEvent) {
    if (current) return current;
    const event = publicEvent(recorded)!;
    return {
      id: eventIndexId(recorded.position),
      organization_id: recorded.metadata.organization_id,
      mode: modeOf(recorded.metadata, recorded.data),
      type: event.type,
      resource_type: event.resource_type,
      resource_id: event.resource_id,
      entity_id: event.entity_id,
      position: event.position,
      created: event.created,
      event,
    };
  },
};

/** Redacted again on the way out: the second guard holds even for documents indexed before a field was added. */
export const shownEvent = (event: PublicEvent): PublicEvent => ({
  ...event,
  data: redact(event.data) as Record<string, unknown>,
});
