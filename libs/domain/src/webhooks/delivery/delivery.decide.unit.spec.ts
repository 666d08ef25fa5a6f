import { specFor } from '../../shared/testing/given-when-then';
import type { DeliveryAttemptRecord, DeliveryEvent } from './delivery.events';
import { deliveryDecider, type DeliveryCommand } from './delivery.decide';

const spec = specFor(deliveryDecider);
const T0 = 1_700_000_000_000;
const ID = 'whd_01J00000000000000000000000';
const REF = { delivery_id: ID, webhook_id: 'whk_1', entity_id: 'ent_1', event_id: 'evt_1', event: 'accounts.created' };
const SCHEDULE = [0, 1000, 5000];

const scheduled: DeliveryEvent = { type: 'WebhookDeliveryScheduled', data: { ...REF, test: false, payload: '{}', scheduled: T0, due_at: T0 } };
const started = (attempt: number, at: number): DeliveryEvent => ({ type: 'WebhookDeliveryAttemptStarted', data: { delivery_id: ID, attempt, started: at, lease_until: at + 70_000 } });
const outcome = (attempt: number, status: 'succeeded' | 'failed', at: number): DeliveryAttemptRecord => ({
  log_id: `whl_${attempt}`,
  attempt,
  url: 'https://hooks.example.com/in',
  status,
  request: { method: 'POST', headers: { 'webhook-signature': '***' }, body: '{}' },
  query_params: {},
  response: status === 'succeeded' ? { status_code: 200, headers: {}, body: 'ok' } : { status_code: 500, headers: {}, body: '' },
  error: null,
  duration_ms: 5,
  sent_at: at,
  completed_at: at + 5,
});
const attempted = (attempt: number, status: 'succeeded' | 'failed', at: number, next: number | null): DeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: { ...REF, ...outcome(attempt, status, at), next_attempt_at: next },
});
const start = (now: number): DeliveryCommand => ({ type: 'StartDeliveryAttempt', delivery_id: ID, lease_ms: 70_000, now });
const recordCmd = (attempt: number, status: 'succeeded' | 'failed', at: number): DeliveryCommand => ({
  type: 'RecordDeliveryAttempt',
  delivery_id: ID,
  outcome: outcome(attempt, status, at),
  retry_schedule_ms: SCHEDULE,
});

describe('webhook delivery decider', () => {
  it('schedules once: a repeated schedule (bus redelivery) records nothing', () => {
    const cmd: DeliveryCommand = { type: 'ScheduleDelivery', delivery: { ...REF, test: false, payload: '{}' }, first_delay_ms: 0, now: T0 };
    spec([]).when(cmd).then([scheduled]);
    spec([scheduled]).when(cmd).then([]);
  });

  it('starts an attempt when due, and no second one while its lease runs', () => {
    spec([scheduled]).when(start(T0)).then([started(1, T0)]);
    spec([scheduled, started(1, T0)]).when(start(T0 + 69_999)).then([]);
    spec([scheduled, started(1, T0)]).when(start(T0 + 70_000)).then([started(2, T0 + 70_000)]);
  });

  it('schedules the retry after a failure by the schedule entry of the next attempt', () => {
    spec([scheduled, started(1, T0)]).when(recordCmd(1, 'failed', T0)).then([attempted(1, 'failed', T0, T0 + 5 + 1000)]);
    const afterFailure = [scheduled, started(1, T0), attempted(1, 'failed', T0, T0 + 1005)];
    spec(afterFailure).when(start(T0 + 1004)).then([]);
    spec(afterFailure).when(start(T0 + 1005)).then([started(2, T0 + 1005)]);
  });

  it('gives up after the last scheduled attempt', () => {
    const given = [scheduled, started(1, T0), attempted(1, 'failed', T0, 1), started(2, 1), attempted(2, 'failed', 1, 2), started(3, 2)];
    spec(given).when(recordCmd(3, 'failed', 2)).then([attempted(3, 'failed', 2, null)]);
    spec([...given, attempted(3, 'failed', 2, null)]).when(start(T0 * 2)).thenState((s) => expect(s.status).toBe('failed'));
  });

  it('never starts another attempt after a 2xx, and logs each attempt once', () => {
    const done = [scheduled, started(1, T0), attempted(1, 'succeeded', T0, null)];
    spec(done).when(start(T0 * 2)).then([]);
    spec(done).when(recordCmd(1, 'succeeded', T0)).then([]);
    spec(done).when({ type: 'CancelDelivery', delivery_id: ID, reason: 'webhook_deleted', now: T0 }).then([]);
  });

  it('is cancelled while pending and then never attempted', () => {
    const cancelled: DeliveryEvent = { type: 'WebhookDeliveryCancelled', data: { ...REF, reason: 'webhook_deleted', cancelled: T0 } };
    spec([scheduled]).when({ type: 'CancelDelivery', delivery_id: ID, reason: 'webhook_deleted', now: T0 }).then([cancelled]);
    spec([scheduled, cancelled]).when(start(T0 * 2)).then([]);
  });

  it('logs a late attempt whose lease ran out without letting it move the delivery', () => {
    const given = [scheduled, started(1, T0), started(2, T0 + 70_000)];
    spec(given).when(recordCmd(1, 'failed', T0)).thenState((s) => expect(s).toMatchObject({ status: 'pending', in_flight: 2, recorded: [1] }));
  });
});
