import type { DeliveryEvent } from '@app/domain';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { ReadDocument } from '@app/platform/read-store/read-store.port';

export interface DueDeliveryDocument extends ReadDocument {
  readonly id: string;
  /** When the scheduler should next look at it: a retry time, or a running attempt's lease end. */
  readonly due_at: number;
  readonly in_flight: number | null;
}

export const DUE_DELIVERIES = 'webhook_deliveries_due';

/**
 * Pending deliveries and when each is due: what the scheduler scans, so a retry planned before a
 * restart is found after it. Finished, failed-for-good and cancelled deliveries leave it.
 */
export const dueDeliveriesProjection: Projection<DueDeliveryDocument> = {
  name: 'webhook-deliveries-due',
  collection: DUE_DELIVERIES,
  handles: ['WebhookDeliveryScheduled', 'WebhookDeliveryAttemptStarted', 'WebhookDeliveryAttempted', 'WebhookDeliveryCancelled'],
  documentIds: (event) => [String(event.data.delivery_id)],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as DeliveryEvent;
    switch (event.type) {
      case 'WebhookDeliveryScheduled':
        return { id: event.data.delivery_id, due_at: event.data.due_at, in_flight: null };
      case 'WebhookDeliveryAttemptStarted':
        return current && { ...current, due_at: event.data.lease_until, in_flight: event.data.attempt };
      case 'WebhookDeliveryAttempted': {
        if (!current) return current;
        if (event.data.status === 'succeeded') return null;
        if (event.data.attempt !== current.in_flight) return current;
        return event.data.next_attempt_at === null ? null : { ...current, due_at: event.data.next_attempt_at, in_flight: null };
      }
      case 'WebhookDeliveryCancelled':
        return null;
      default:
        return current;
    }
  },
};
