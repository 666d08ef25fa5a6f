import request from 'supertest';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { ApiMetrics } from '../../apps/api/src/metrics/api-metrics';
import { openAccount } from '../accounts/accounts-helpers';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';

/** One sample of the Prometheus text format: `name{labels} value`. */
interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when there is none). */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce<number | undefined>((sum, s) => (sum ?? 0) + s.value, undefined);

/**
 * Issue 22 ("Done when"): a scrape of /metrics after a small workload finds each named series with
 * plausible values: HTTP by route template, appends and conflicts, projection and bus lag,
 * process-manager backlog, webhook deliveries by outcome with latency, and the ledger's totals.
 */
describe('GET /metrics after a small workload', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let samples: Sample[];
  let text: string;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
    const entity = await approvedEntity(t, KEYS.sandbox, 'Metrics');
    await webhookTo(t, receiver, '/metrics-hook', { entity_id: entity, enabled_events: { accounts: ['created'] } });
    await t.settle();
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await t.http
      .post(`/sandbox/accounts/${account.id}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 150000, currency: 'USD' })
      .expect(201);
    await t.http.get(`/accounts/${account.id}`).set(bearer(KEYS.sandbox)).expect(200);
    await t.http.get('/accounts/acc_01ARZ3NDEKTSV4RRFFQ69G5FAV').set(bearer(KEYS.sandbox)).expect(404);
    await t.http.get('/no-such-route').expect(404);
    // An append on a revision another writer moved: a conflict, as two processes racing make one.
    const store = t.app.get<EventStore>(EVENT_STORE);
    await expect(
      store.append(
        `account-${account.id}`,
        [
          {
            type: 'Probe',
            data: {},
            metadata: {
              event_id: 'evt_probe',
              organization_id: 'org_x',
              correlation_id: 'c',
              causation_id: 'c',
              schema_version: 1,
              occurred_at: Date.now(),
            },
          },
        ],
        0,
      ),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await eventually(
      () => receiver.on('/metrics-hook'),
      (r) => r.length >= 1,
    );
    await t.settle();
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    text = res.text;
    samples = parseMetrics(text);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });

  it('counts HTTP requests by route template and status, with latency histograms (ids never labels)', () => {
    expect(
      valueOf(samples, 'http_requests_total', { method: 'POST', route: '/accounts', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'http_requests_total', { method: 'GET', route: '/accounts/:id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'http_requests_total', { method: 'GET', route: '/accounts/:id', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/sandbox/accounts/:id/fund',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'http_request_duration_seconds_bucket', {
        method: 'POST',
        route: '/accounts',
        status: '201',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="[^"]*acc_/);
  });

  it('counts appends and expected-revision conflicts at the event store port', () => {
    expect(valueOf(samples, 'payments_event_store_appends_total', { outcome: 'ok' })).toBeGreaterThan(5);
    expect(valueOf(samples, 'payments_event_store_appends_total', { outcome: 'conflict' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'payments_event_store_appended_events_total')).toBeGreaterThanOrEqual(
      valueOf(samples, 'payments_event_store_appends_total', { outcome: 'ok' })! - 1,
    );
  });

  it('reports the log head, the readers positions and their lag (0 once settled)', () => {
    const head = valueOf(samples, 'payments_log_position', { reader: 'head' })!;
    expect(head).toBeGreaterThan(5);
    expect(valueOf(samples, 'payments_log_position', { reader: 'projected' })).toBeLessThanOrEqual(head);
    expect(valueOf(samples, 'payments_log_lag', { reader: 'projector' })).toBe(0);
    expect(valueOf(samples, 'payments_log_lag', { reader: 'publisher' })).toBeGreaterThanOrEqual(0);
  });

  it('reports each process manager: backlog behind the head, lease held, events handled', () => {
    const backlog = samples.filter((s) => s.name === 'payments_process_manager_backlog');
    expect(backlog.length).toBeGreaterThanOrEqual(5);
    const head = valueOf(samples, 'payments_log_position', { reader: 'head' })!;
    for (const s of backlog) expect(s.value).toBeGreaterThanOrEqual(0);
    for (const s of backlog) expect(s.value).toBeLessThanOrEqual(head);
    expect(samples.filter((s) => s.name === 'payments_process_manager_holding').map((s) => s.value)).toContain(1);
  });

  it('counts webhook deliveries by outcome, with their latency', () => {
    expect(valueOf(samples, 'payments_webhook_deliveries_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'payments_webhook_delivery_duration_seconds_count', { outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'payments_webhook_delivery_duration_seconds_sum', { outcome: 'succeeded' }),
    ).toBeGreaterThan(0);
  });

  it('reports the ledger per currency and mode, summed over organizations, balanced', () => {
    expect(
      valueOf(samples, 'payments_ledger_amount', { currency: 'USD', mode: 'sandbox', side: 'credit', state: 'posted' }),
    ).toBeGreaterThanOrEqual(150000);
    expect(
      valueOf(samples, 'payments_ledger_amount', { currency: 'USD', mode: 'sandbox', side: 'debit', state: 'posted' }),
    ).toBeGreaterThanOrEqual(150000);
    expect(valueOf(samples, 'payments_ledger_imbalance', { currency: 'USD', mode: 'sandbox' })).toBe(0);
    expect(samples.some((s) => s.name.startsWith('payments_ledger') && 'organization_id' in s.labels)).toBe(false);
  });

  it("includes the process's own series (CPU, memory, event loop)", () => {
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('METRICS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_PORT: '0' });
  });
  afterAll(() => t.close());

  it('serves /metrics on its own port only: the API port answers as for an unknown route', async () => {
    const port = t.app.get(ApiMetrics).port;
    expect(port).toEqual(expect.any(Number));
    const res = await request(`http://127.0.0.1:${port}`).get('/metrics').expect(200);
    expect(res.text).toContain('payments_log_position{reader="head"}');
    await request(`http://127.0.0.1:${port}`).get('/accounts').expect(404);
    expect((await t.http.get('/metrics').expect(404)).body).toMatchObject({ status: 'error', code: 'not_found' });
  });
});
