import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { parseTraceparent, spanIdOf, traceIdOf } from '@app/platform/logging/trace-context';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import {
  eventually,
  fastWorkerEnv,
  logsOf,
  requireTestCa,
  startWebhookApp,
  webhookTo,
} from '../webhooks/webhooks-helpers';

/**
 * Issue 22: W3C trace context from a request to the bus and to its webhooks. The log records no
 * trace; every process derives it from the events' correlation id (the request id), so the
 * request, its bus messages and its webhook attempts share one trace id.
 */
describe('traceparent: request → bus → webhook', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  let entity: string;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
    entity = await approvedEntity(t, KEYS.sandbox, 'Tracer');
    await webhookTo(t, receiver, '/traced', { entity_id: entity, enabled_events: { accounts: ['created'] } });
    await t.settle();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  it('carries the trace of the request that opened an account onto its bus message and its webhook', async () => {
    const res = await t.http
      .post('/accounts')
      .set(bearer(KEYS.sandbox))
      .set('x-request-id', 'trace-req-1')
      .send({ entity_id: entity, type: 'checking', currency: 'USD' })
      .expect(201);
    const trace = traceIdOf('trace-req-1');

    const [delivery] = await eventually(
      () => receiver.on('/traced'),
      (r) => r.length >= 1,
    );
    const sent = parseTraceparent(delivery.headers.traceparent);
    expect(sent).toEqual({ traceId: trace, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), sampled: true });
    expect(delivery.payload.data).toMatchObject({ id: res.body.id });
    // The attempt log shows what was sent, the traceparent with it.
    const [log] = await eventually(
      () => logsOf(t, entity),
      (l) => l.length >= 1,
    );
    expect(log.request.headers.traceparent).toBe(delivery.headers.traceparent);

    // The bus message of the event: the same trace, the event as its span.
    await t.settle();
    const db = new Database(join(t.dataDir, 'bus.db'), { readonly: true });
    try {
      const messages = (
        db.prepare('SELECT value, headers FROM messages').all() as Array<{ value: string; headers: string }>
      ).map((m) => ({
        event: JSON.parse(m.value) as RecordedEvent,
        headers: JSON.parse(m.headers) as Record<string, string>,
      }));
      const opened =
        messages.find(
          (m) =>
            m.event.type === 'AccountOpened' && (m.event.data as { account_id?: string }).account_id === res.body.id,
        ) ?? messages.find((m) => m.event.metadata.correlation_id === 'trace-req-1');
      expect(opened).toBeDefined();
      expect(opened!.headers.traceparent).toBe(`00-${trace}-${spanIdOf(opened!.event.id)}-01`);
      // Every message carries one: the bootstrap's and the fixtures' too, each under its own request's trace.
      for (const m of messages)
        expect(parseTraceparent(m.headers.traceparent)?.traceId).toBe(traceIdOf(m.event.metadata.correlation_id));
    } finally {
      db.close();
    }
  });
});
