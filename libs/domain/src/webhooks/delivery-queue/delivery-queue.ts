import type { Decider, Decision } from '../../shared';

/** Where an event sits in the log: its global position, then its rank among the public events it fires. */
export interface QueuePlace {
  readonly position: number;
  readonly seq: number;
}

interface QueueRef {
  readonly webhook_id: string;
  /** The stream of the domain events the deliveries are about (`account-acc_…`). */
  readonly resource: string;
  readonly delivery_id: string;
}

/**
 * Stream `webhook-queue-<webhook_id>-<resource>`: the deliveries to one webhook about one resource,
 * in event order (decisions §9). Only the head may be attempted; when it is done (delivered,
 * failed for good or cancelled) it leaves and the next one becomes the head. Other resources have
 * their own queues, so they never wait on this one.
 */
export type DeliveryQueueEvent =
  | { readonly type: 'WebhookDeliveryEnqueued'; readonly data: QueueRef & QueuePlace & { readonly head: boolean } }
  | { readonly type: 'WebhookDeliveryDequeued'; readonly data: QueueRef & { readonly next_head: string | null } };

export interface DeliveryQueueState {
  readonly pending: readonly string[];
  /** The latest place enqueued: the router enqueues a resource's events in order. */
  readonly last: QueuePlace | null;
}

export type DeliveryQueueCommand =
  | ({ readonly type: 'EnqueueDelivery' } & QueueRef & QueuePlace)
  | ({ readonly type: 'DequeueDelivery' } & QueueRef);

const notAfter = (a: QueuePlace, b: QueuePlace) => a.position < b.position || (a.position === b.position && a.seq <= b.seq);

/**
 * Enqueuing what is queued, or a place not after the last one (a redelivered bus message whose
 * delivery already went through), records nothing; the caller reads `pending` to know which.
 */
function decide(command: DeliveryQueueCommand, state: DeliveryQueueState): Decision<DeliveryQueueEvent> {
  const { webhook_id, resource, delivery_id } = command;
  if (command.type === 'EnqueueDelivery') {
    if (state.pending.includes(delivery_id) || (state.last && notAfter(command, state.last))) return [];
    const { position, seq } = command;
    return [{ type: 'WebhookDeliveryEnqueued', data: { webhook_id, resource, delivery_id, position, seq, head: state.pending.length === 0 } }];
  }
  if (!state.pending.includes(delivery_id)) return [];
  const next_head = state.pending[0] === delivery_id ? (state.pending[1] ?? null) : null;
  return [{ type: 'WebhookDeliveryDequeued', data: { webhook_id, resource, delivery_id, next_head } }];
}

function evolve(state: DeliveryQueueState, event: DeliveryQueueEvent): DeliveryQueueState {
  switch (event.type) {
    case 'WebhookDeliveryEnqueued':
      return { pending: [...state.pending, event.data.delivery_id], last: { position: event.data.position, seq: event.data.seq } };
    case 'WebhookDeliveryDequeued':
      return { ...state, pending: state.pending.filter((id) => id !== event.data.delivery_id) };
    default:
      return state;
  }
}

export const deliveryQueueDecider: Decider<DeliveryQueueCommand, DeliveryQueueEvent, DeliveryQueueState> = {
  initialState: { pending: [], last: null },
  decide,
  evolve,
};
