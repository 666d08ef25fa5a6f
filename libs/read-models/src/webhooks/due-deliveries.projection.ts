import type { DeliveryEvent, DeliveryQueueEvent } from '@app/domain';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Projection } from '@app/platform/read-store/projection';
import type { ReadDocument } from '@app/platform/read-store/read-store.port';

export interface DueDeliveryDocument extends ReadDocument {
  readonly id: string;
  /** When the scheduler should next look at it: a retry time, a running attempt's lease end; null until scheduled. */
  readonly due_at: number | null;
  readonly in_flight: number | null;
  /** Whether it may be attempted: the head of its webhook+resource queue, or in no queue. */
  readonly head: boolean;
  /** In a queue: kept after it finishes until it is dequeued, so a crash in between is repaired. */
  readonly queued: boolean;
  readonly finished?: true;
}

/** Renamed with the queues (v2), so an existing deployment builds it from the start of the log. */
export const DUE_DELIVERIES = 'webhook_deliveries_ready';

/**
 * The worker that finishes a delivery dequeues it at once; the scheduler comes back to a finished,
 * still-queued delivery only after this long (the worker died in between).
 */
export const DEQUEUE_GRACE_MS = 10_000;

const finish = (current: DueDeliveryDocument | null, at: number): DueDeliveryDocument | null =>
  current?.queued ? { ...current, finished: true, in_flight: null, due_at: at + DEQUEUE_GRACE_MS } : null;

function onDelivery(current: DueDeliveryDocument | null, event: DeliveryEvent): DueDeliveryDocument | null {
  switch (event.type) {
    case 'WebhookDeliveryScheduled': {
      const queued = Boolean(event.data.resource);
      return { id: event.data.delivery_id, due_at: event.data.due_at, in_flight: null, head: !queued || (current?.head ?? false), queued };
    }
    case 'WebhookDeliveryAttemptStarted':
      return current && { ...current, due_at: event.data.lease_until, in_flight: event.data.attempt };
    case 'WebhookDeliveryAttempted': {
      if (!current || current.finished) return current;
      if (event.data.status === 'succeeded') return finish(current, event.data.completed_at);
      if (event.data.attempt !== current.in_flight) return current;
      return event.data.next_attempt_at === null ? finish(current, event.data.completed_at) : { ...current, due_at: event.data.next_attempt_at, in_flight: null };
    }
    case 'WebhookDeliveryCancelled':
      return current?.finished ? current : finish(current, event.data.cancelled);
    default:
      return current;
  }
}

function onQueue(current: DueDeliveryDocument | null, event: DeliveryQueueEvent): DueDeliveryDocument | null {
  if (event.type === 'WebhookDeliveryEnqueued') {
    if (current) return { ...current, head: current.head || event.data.head, queued: true };
    return { id: event.data.delivery_id, due_at: null, in_flight: null, head: event.data.head, queued: true };
  }
  // Touches the dequeued delivery (it leaves) and the next head (it may go).
  if (!current) return null;
  return current.id === event.data.delivery_id ? null : { ...current, head: true };
}

/**
 * Deliveries that may be attempted and when (webhook delivery and queue events): what the
 * scheduler scans, so a retry planned before a restart is found after it, and a delivery queued
 * behind an earlier one about the same resource is not seen until it becomes the head.
 */
export const dueDeliveriesProjection: Projection<DueDeliveryDocument> = {
  name: 'webhook-deliveries-ready',
  collection: DUE_DELIVERIES,
  // The scheduler's query: queue heads, oldest id first; `due_at` is checked on those rows only.
  indexes: [['head']],
  handles: ['WebhookDeliveryScheduled', 'WebhookDeliveryAttemptStarted', 'WebhookDeliveryAttempted', 'WebhookDeliveryCancelled', 'WebhookDeliveryEnqueued', 'WebhookDeliveryDequeued'],
  documentIds: (event) => [String(event.data.delivery_id), ...(event.type === 'WebhookDeliveryDequeued' && event.data.next_head ? [String(event.data.next_head)] : [])],
  evolve(current, recorded: RecordedEvent) {
    const event = recorded as unknown as DeliveryEvent | DeliveryQueueEvent;
    if (event.type === 'WebhookDeliveryEnqueued' || event.type === 'WebhookDeliveryDequeued') return onQueue(current, event);
    return onDelivery(current, event);
  },
};
