import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { MongoDeliveryStore } from '@app/platform/delivery-store/mongo-delivery-store';
import { SqliteDeliveryStore } from '@app/platform/delivery-store/sqlite-delivery-store';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { systemClock } from '@app/platform/clock';
import { importLegacyDeliveries, LEGACY_IMPORT_MARKER } from './legacy-import';

/** A log written by the code before the delivery store (commit 5f5e421): see test/webhooks/write-legacy-delivery-log.ts. */
const FIXTURE = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'webhook-deliveries-v1.jsonl');
const events = (): RecordedEvent[] =>
  readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RecordedEvent);
const ofType = (type: string) => events().filter((e) => e.type === type);

const WEBHOOKS = {
  flaky: 'whk_01M85TK1C8C785BXKD2Q4HJY86',
  down: 'whk_01M85TK1DW1Z4NRR6E6XFNKGYJ',
  deleted: 'whk_01M85TK1GQQZ1FF24FEP2YX36M',
};
const ENTITY = 'ent_01M85TK1A6HNBQKYPA709K4BMD';

const mongoUrl = process.env.MONGO_URL;
let databases = 0;
const STORES: [string, (dir: string) => DeliveryStore][] = [
  ['sqlite', (dir) => new SqliteDeliveryStore(join(dir, 'deliveries.db'))],
];
// A fresh database per test: the import's marker is per store.
if (mongoUrl)
  STORES.push([
    'mongodb',
    () => new MongoDeliveryStore(mongoUrl, `payments_legacy_import_${Date.now().toString(36)}_${++databases}`),
  ]);
else console.warn('legacy import on the mongodb delivery store skipped: MONGO_URL is not set');

describe.each(STORES)(
  'importing the delivery events of an older log into the delivery store (%s)',
  (_name, openStore) => {
    let dir: string;
    let log: SqliteEventStore;
    let store: DeliveryStore;

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'legacy-import-'));
      // The log exactly as stored: positions, revisions and hashes as the old code wrote them.
      await new SqliteEventStore(join(dir, 'events.db')).close();
      const db = new Database(join(dir, 'events.db'));
      const insert = db.prepare(
        'INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      db.transaction(() =>
        events().forEach((e) =>
          insert.run(
            e.position,
            e.streamId,
            e.revision,
            e.id,
            e.type,
            JSON.stringify(e.data),
            JSON.stringify(e.metadata),
          ),
        ),
      )();
      db.close();
      log = new SqliteEventStore(join(dir, 'events.db'));
      store = openStore(dir);
    });
    afterEach(async () => {
      await log.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lists every attempt the log recorded as the old webhook_logs read model did', async () => {
      await importLegacyDeliveries(log, store, systemClock);
      const attempted = ofType('WebhookDeliveryAttempted');
      expect(attempted).toHaveLength(13);
      const org = attempted[0].metadata.organization_id;
      const listed = await store.logs({ organization_id: org, mode: 'sandbox', entity_id: ENTITY }, { limit: 100 });
      // The old projection: the event's data without delivery_id and next_attempt_at, id = log_id, created = completed_at.
      const expected = attempted.map((e) => {
        const { log_id, next_attempt_at: _n, ...entry } = e.data as Record<string, unknown>;
        return { ...entry, id: log_id, organization_id: org, mode: 'sandbox', created: entry.completed_at };
      });
      expect(listed.items).toEqual(expected.sort((a, b) => String(b.id).localeCompare(String(a.id))));
      expect(
        (await store.logs({ organization_id: org, mode: 'live', entity_id: ENTITY }, { limit: 100 })).items,
      ).toEqual([]);
    });

    it("counts each webhook's statistics from its attempts", async () => {
      await importLegacyDeliveries(log, store, systemClock);
      const stats = await store.stats(Object.values(WEBHOOKS));
      const last = (webhook: string) =>
        Math.max(
          ...ofType('WebhookDeliveryAttempted')
            .filter((e) => e.data.webhook_id === webhook)
            .map((e) => Number(e.data.completed_at)),
        );
      const first = (webhook: string) =>
        Math.min(
          ...ofType('WebhookDeliveryAttempted')
            .filter((e) => e.data.webhook_id === webhook)
            .map((e) => Number(e.data.completed_at)),
        );
      // failing_since (decisions §15): null after a success; the first failure of a webhook that never succeeded.
      expect(stats.get(WEBHOOKS.flaky)).toEqual({
        deliveries_total: 10,
        deliveries_succeeded: 9,
        deliveries_failed: 1,
        last_delivery_at: last(WEBHOOKS.flaky),
        last_response_status: 200,
        failing_since: null,
      });
      expect(stats.get(WEBHOOKS.down)).toEqual({
        deliveries_total: 2,
        deliveries_succeeded: 0,
        deliveries_failed: 2,
        last_delivery_at: last(WEBHOOKS.down),
        last_response_status: 500,
        failing_since: first(WEBHOOKS.down),
      });
      expect(stats.get(WEBHOOKS.deleted)).toMatchObject({ deliveries_total: 1, deliveries_failed: 1 });
    });

    it('keeps each delivery where it stood: finished ones done, the pending retry due when it was, in its queue', async () => {
      const result = await importLegacyDeliveries(log, store, systemClock);
      expect(result).toMatchObject({ deliveries: 11, attempts: 13 });
      const scheduled = ofType('WebhookDeliveryScheduled').map((e) => String(e.data.delivery_id));
      const rows = await Promise.all(scheduled.map((id) => store.get(id)));
      const byStatus = (status: string) => rows.filter((r) => r?.status === status);
      expect([byStatus('succeeded').length, byStatus('cancelled').length, byStatus('pending').length]).toEqual([
        9, 1, 1,
      ]);
      expect(byStatus('cancelled')[0]).toMatchObject({
        webhook_id: WEBHOOKS.deleted,
        cancel_reason: 'webhook_deleted',
        head: false,
      });
      const retry = ofType('WebhookDeliveryAttempted').find(
        (e) => e.data.webhook_id === WEBHOOKS.down && e.data.attempt === 2,
      )!;
      expect(byStatus('pending')[0]).toMatchObject({
        webhook_id: WEBHOOKS.down,
        attempts: 2,
        head: true,
        due_at: retry.data.next_attempt_at,
        queue: { resource: expect.stringMatching(/^account-acc_/) },
      });
      // The test delivery waits on nothing; the others keep the place the router gave them.
      const enqueued = ofType('WebhookDeliveryEnqueued');
      for (const row of rows) {
        const place = enqueued.find((e) => e.data.delivery_id === row!.id);
        expect(row!.queue).toEqual(
          place ? { resource: place.data.resource, position: place.data.position, seq: place.data.seq } : null,
        );
      }
      // Not yet due (a year away): nothing to attempt now.
      expect(await store.due(Date.now(), 100)).toEqual([]);
    });

    it('runs once: the marker stops a second run, and two runs at once store everything once', async () => {
      const [a, b] = await Promise.all([
        importLegacyDeliveries(log, store, systemClock),
        importLegacyDeliveries(log, store, systemClock),
      ]);
      expect(a!.attempts + b!.attempts).toBe(13);
      expect(a!.deliveries + b!.deliveries).toBe(11);
      expect(JSON.parse((await store.marker(LEGACY_IMPORT_MARKER))!)).toMatchObject({ through: 87 });
      expect(await importLegacyDeliveries(log, store, systemClock)).toBeNull();
      expect((await store.stats([WEBHOOKS.flaky])).get(WEBHOOKS.flaky)?.deliveries_total).toBe(10);
    });
  },
);
