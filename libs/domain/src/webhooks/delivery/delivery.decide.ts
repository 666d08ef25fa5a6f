import { notFound, type Decider, type Decision } from '../../shared';
import type { DeliveryAttemptRecord, DeliveryEvent } from './delivery.events';
import { evolveDelivery, initialDeliveryState, type DeliveryState, type PendingDelivery } from './delivery';

type Scheduled = Extract<DeliveryEvent, { type: 'WebhookDeliveryScheduled' }>['data'];
type CancelReason = Extract<DeliveryEvent, { type: 'WebhookDeliveryCancelled' }>['data']['reason'];

export type DeliveryCommand =
  | { readonly type: 'ScheduleDelivery'; readonly delivery: Omit<Scheduled, 'scheduled' | 'due_at'>; readonly first_delay_ms: number; readonly now: number }
  | { readonly type: 'StartDeliveryAttempt'; readonly delivery_id: string; readonly lease_ms: number; readonly now: number }
  | {
      readonly type: 'RecordDeliveryAttempt';
      readonly delivery_id: string;
      readonly outcome: DeliveryAttemptRecord;
      /** `WEBHOOK_RETRY_SCHEDULE_MS`: entry n is the delay before attempt n + 1. */
      readonly retry_schedule_ms: readonly number[];
    }
  | { readonly type: 'CancelDelivery'; readonly delivery_id: string; readonly reason: CancelReason; readonly now: number };

const ref = (s: PendingDelivery | Exclude<DeliveryState, { status: 'none' }>) => ({
  delivery_id: s.id,
  webhook_id: s.webhook_id,
  entity_id: s.entity_id,
  event_id: s.event_id,
  event: s.event,
});

/** The stream id is derived from the event and the webhook, so scheduling twice is a no-op. */
function schedule(command: Extract<DeliveryCommand, { type: 'ScheduleDelivery' }>, state: DeliveryState): Decision<DeliveryEvent> {
  if (state.status !== 'none') return [];
  const { delivery, first_delay_ms, now } = command;
  return [{ type: 'WebhookDeliveryScheduled', data: { ...delivery, scheduled: now, due_at: now + first_delay_ms } }];
}

/** Nothing to start unless pending and due (a running attempt holds `due_at` at its lease's end). */
function start(command: Extract<DeliveryCommand, { type: 'StartDeliveryAttempt' }>, state: DeliveryState): Decision<DeliveryEvent> {
  if (state.status !== 'pending' || command.now < state.due_at) return [];
  const data = { delivery_id: state.id, attempt: state.attempts + 1, started: command.now, lease_until: command.now + command.lease_ms };
  return [{ type: 'WebhookDeliveryAttemptStarted', data }];
}

/** Every attempt made is logged once; only the attempt in flight decides what happens next. */
function record(command: Extract<DeliveryCommand, { type: 'RecordDeliveryAttempt' }>, state: Exclude<DeliveryState, { status: 'none' }>): Decision<DeliveryEvent> {
  const { outcome, retry_schedule_ms } = command;
  if (outcome.attempt > state.attempts || state.recorded.includes(outcome.attempt)) return [];
  const decidesNext = state.status === 'pending' && state.in_flight === outcome.attempt && outcome.status === 'failed';
  const delay = retry_schedule_ms[outcome.attempt];
  const next_attempt_at = decidesNext && delay !== undefined ? outcome.completed_at + delay : null;
  return [{ type: 'WebhookDeliveryAttempted', data: { ...ref(state), ...outcome, next_attempt_at } }];
}

function decide(command: DeliveryCommand, state: DeliveryState): Decision<DeliveryEvent> {
  switch (command.type) {
    case 'ScheduleDelivery':
      return schedule(command, state);
    case 'StartDeliveryAttempt':
      return start(command, state);
    case 'RecordDeliveryAttempt':
      return state.status === 'none' ? notFound('webhook_delivery', command.delivery_id) : record(command, state);
    case 'CancelDelivery':
      if (state.status !== 'pending') return [];
      return [{ type: 'WebhookDeliveryCancelled', data: { ...ref(state), reason: command.reason, cancelled: command.now } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const deliveryDecider: Decider<DeliveryCommand, DeliveryEvent, DeliveryState> = {
  initialState: initialDeliveryState,
  decide,
  evolve: evolveDelivery,
};
