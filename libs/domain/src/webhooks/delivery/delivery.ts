import type { DeliveryEvent } from './delivery.events';

interface DeliveryBase {
  readonly id: string;
  readonly webhook_id: string;
  readonly entity_id: string;
  readonly event_id: string;
  readonly event: string;
  readonly test: boolean;
  readonly payload: string;
  /** The resource queue the delivery waits in, or null when it waits on nothing. */
  readonly resource: string | null;
  /** Attempts started so far; the next one is `attempts + 1`. */
  readonly attempts: number;
  /** Attempt numbers whose outcome is recorded. */
  readonly recorded: readonly number[];
}

export interface PendingDelivery extends DeliveryBase {
  readonly status: 'pending';
  /** When the next attempt may start: the retry time, or the end of a running attempt's lease. */
  readonly due_at: number;
  readonly in_flight: number | null;
}

export type DeliveryState =
  | { readonly status: 'none' }
  | PendingDelivery
  | (DeliveryBase & { readonly status: 'succeeded' | 'failed' | 'cancelled' });

export const initialDeliveryState: DeliveryState = { status: 'none' };

export function evolveDelivery(state: DeliveryState, event: DeliveryEvent): DeliveryState {
  if (event.type === 'WebhookDeliveryScheduled') {
    const { delivery_id, scheduled: _s, due_at, resource, ...rest } = event.data;
    return { ...rest, id: delivery_id, resource: resource ?? null, status: 'pending', due_at, in_flight: null, attempts: 0, recorded: [] };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'WebhookDeliveryAttemptStarted':
      if (state.status !== 'pending') return state;
      return { ...state, attempts: event.data.attempt, in_flight: event.data.attempt, due_at: event.data.lease_until };
    case 'WebhookDeliveryAttempted': {
      const recorded = [...state.recorded, event.data.attempt];
      if (state.status !== 'pending') return { ...state, recorded };
      // A 2xx ends the delivery whichever attempt brought it; a failure moves it on only when it is
      // the attempt in flight (a stale one, whose lease had run out, changes nothing else).
      if (event.data.status === 'succeeded') return { ...state, recorded, status: 'succeeded' };
      if (event.data.attempt !== state.in_flight) return { ...state, recorded };
      const next = event.data.next_attempt_at;
      return next === null ? { ...state, recorded, status: 'failed' } : { ...state, recorded, in_flight: null, due_at: next };
    }
    case 'WebhookDeliveryCancelled':
      return state.status === 'pending' ? { ...state, status: 'cancelled' } : state;
    default:
      return state;
  }
}
