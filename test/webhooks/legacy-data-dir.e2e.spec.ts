import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { fixtureDataDir, fixtureEvents } from '../support/fixture-data-dir';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import {
  eventually,
  fastWorkerEnv,
  logsOf,
  requireTestCa,
  startWebhookApp,
  storedDeliveries,
} from './webhooks-helpers';

/**
 * A log written by the code before the delivery store (commit 5f5e421, by
 * test/webhooks/write-legacy-delivery-log.ts): its webhook logs and statistics lived in read models
 * projected from delivery events. Started on today's code, the same DATA_DIR lists the same logs.
 */
const events = (): RecordedEvent[] => fixtureEvents('webhook-deliveries-v1.jsonl');
const ENTITY = 'ent_01M85TK1A6HNBQKYPA709K4BMD';
const WEBHOOKS = { flaky: 'whk_01M85TK1C8C785BXKD2Q4HJY86', down: 'whk_01M85TK1DW1Z4NRR6E6XFNKGYJ' };

const olderDataDir = () => fixtureDataDir('webhook-deliveries-v1.jsonl', 'legacy-webhooks-');

/** Where the webhooks consumer group stands on the embedded bus, and the last message published. */
function busProgress(dataDir: string): { routed: number; published: number } {
  const db = new Database(join(dataDir, 'bus.db'), { readonly: true, fileMustExist: true });
  try {
    const routed =
      (
        db.prepare("SELECT position FROM group_offsets WHERE group_id = 'webhooks'").get() as
          { position: number } | undefined
      )?.position ?? 0;
    const published = db.prepare('SELECT COUNT(*) AS n, MAX(position) AS last FROM messages').get() as {
      n: number;
      last: number | null;
    };
    return { routed, published: published.n >= events().length ? (published.last ?? 0) : Infinity };
  } finally {
    db.close();
  }
}

describe('an older DATA_DIR whose log holds delivery events', () => {
  let t: TestApp;
  let dir: string;
  let restoreEnv: () => void;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    dir = await olderDataDir();
    t = await startWebhookApp({}, dir);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
    restoreEnv?.();
  });

  it('lists its webhook logs as before, with the same filters and statistics', async () => {
    const attempted = events().filter((e) => e.type === 'WebhookDeliveryAttempted');
    const logs = await logsOf(t, ENTITY);
    expect(logs.map((l) => l.id)).toEqual(
      attempted
        .map((e) => String(e.data.log_id))
        .sort()
        .reverse(),
    );
    const first = attempted[0].data;
    expect(logs.find((l) => l.id === first.log_id)).toEqual({
      id: first.log_id,
      object: 'webhook_log',
      entity_id: ENTITY,
      webhook_id: first.webhook_id,
      event_id: first.event_id,
      event: first.event,
      url: first.url,
      attempt: 1,
      status: 'failed',
      request: first.request,
      query_params: first.query_params,
      response: first.response,
      error: 'HTTP 500',
      duration_ms: first.duration_ms,
      created: first.completed_at,
      sent_at: first.sent_at,
      completed_at: first.completed_at,
    });
    expect(await logsOf(t, ENTITY, { webhook_id: WEBHOOKS.down })).toHaveLength(2);
    expect(await logsOf(t, ENTITY, { status: 'failed' })).toHaveLength(4);
    expect(await logsOf(t, ENTITY, { event: 'outflows.completed' })).toHaveLength(1);

    const stats = (
      await t.http
        .get(`/entity-webhooks/${WEBHOOKS.flaky}`)
        .query({ entity_id: ENTITY })
        .set(bearer(KEYS.sandbox))
        .expect(200)
    ).body.stats;
    expect(stats).toMatchObject({
      deliveries_total: 10,
      deliveries_succeeded: 9,
      deliveries_failed: 1,
      last_response_status: 200,
    });
    const listed = (
      await t.http.get('/entity-webhooks').query({ entity_id: ENTITY }).set(bearer(KEYS.sandbox)).expect(200)
    ).body.data;
    expect(
      Object.fromEntries(
        listed.map((w: { id: string; stats: { deliveries_total: number } }) => [w.id, w.stats.deliveries_total]),
      ),
    ).toEqual({ [WEBHOOKS.flaky]: 10, [WEBHOOKS.down]: 2 });
  });

  it('routes the old log again (a fresh bus) without a second delivery, and writes no delivery event', async () => {
    // The publisher republishes the whole log and the router sees every event again: the derived
    // delivery ids are the imported ones, so nothing is scheduled twice and the pending retry keeps its time.
    await eventually(
      () => busProgress(t.dataDir),
      (p) => p.routed >= p.published,
      30_000,
    );
    const deliveries = storedDeliveries(t.dataDir);
    expect(deliveries).toHaveLength(events().filter((e) => e.type === 'WebhookDeliveryScheduled').length);
    expect(deliveries.filter((d) => d.status === 'pending').map((d) => [d.webhook_id, d.attempts])).toEqual([
      [WEBHOOKS.down, 2],
    ]);
    expect(await logsOf(t, ENTITY)).toHaveLength(13);
    const log = await t.app.get<EventStore>(EVENT_STORE).readAll({ after: events().length, limit: 1000 });
    expect(log.filter((e) => /^WebhookDelivery/.test(e.type))).toEqual([]);
  });
});
