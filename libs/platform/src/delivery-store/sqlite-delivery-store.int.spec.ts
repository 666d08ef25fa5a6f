import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describeDeliveryStoreContract, dueDelivery } from './delivery-store.contract';
import { SqliteDeliveryStore } from './sqlite-delivery-store';

const dir = mkdtempSync(join(tmpdir(), 'deliveries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every instance opens one file, as the processes on one DATA_DIR do.
describeDeliveryStoreContract('sqlite', async () => new SqliteDeliveryStore(join(dir, 'deliveries.db')));

const T0 = 1_800_000_000_000;
const newDelivery = (id: string) => dueDelivery(id, T0);

describe('SqliteDeliveryStore on a file from before traces', () => {
  it('adds the trace_id column, keeps the deliveries there, and stores traces from then on', async () => {
    const file = join(dir, 'before-traces.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE deliveries (
      id TEXT PRIMARY KEY, organization_id TEXT NOT NULL, mode TEXT NOT NULL, entity_id TEXT NOT NULL, webhook_id TEXT NOT NULL,
      event_id TEXT NOT NULL, event TEXT NOT NULL, test INTEGER NOT NULL, payload TEXT NOT NULL, resource TEXT, position INTEGER, seq INTEGER,
      scheduled INTEGER NOT NULL, due_at INTEGER NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, head INTEGER NOT NULL, finished_at INTEGER, cancel_reason TEXT)`);
    old
      .prepare(
        `INSERT INTO deliveries VALUES ('whd_old', 'org_1', 'sandbox', 'ent_1', 'whk_1', 'evt_old', 'accounts.created', 0, '{}', NULL, NULL, NULL, ${T0}, ${T0}, 'pending', 0, 1, NULL, NULL)`,
      )
      .run();
    old.close();
    // The first connection adds the column; the second finds it there.
    const [a, b] = [new SqliteDeliveryStore(file), new SqliteDeliveryStore(file)];
    expect(await a.get('whd_old')).toMatchObject({ id: 'whd_old', status: 'pending' });
    expect(await a.get('whd_old')).not.toHaveProperty('trace_id');
    await b.schedule({ ...newDelivery('whd_new'), trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
    expect(await a.get('whd_new')).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736' });
    await Promise.all([a.close(), b.close()]);
  });
});

describe('SqliteDeliveryStore across processes', () => {
  it('gives an attempt to one of two connections on one file (two workers on one DATA_DIR)', async () => {
    const file = join(dir, 'shared.db');
    const [a, b] = [new SqliteDeliveryStore(file), new SqliteDeliveryStore(file)];
    for (let i = 0; i < 20; i++) await a.schedule(newDelivery(`whd_${i}`));
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => [a.claim(`whd_${i}`, T0, 1000), b.claim(`whd_${i}`, T0, 1000)]).flat(),
    );
    expect(claims.filter(Boolean)).toHaveLength(20);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses to change or remove a log entry', async () => {
    const file = join(dir, 'immutable.db');
    const store = new SqliteDeliveryStore(file);
    const log = {
      id: 'whl_1',
      delivery_id: 'whd_1',
      organization_id: 'org_1',
      mode: 'sandbox' as const,
      entity_id: 'ent_1',
      webhook_id: 'whk_1',
      event_id: 'evt_1',
      event: 'accounts.created',
    };
    await store.restoreAttempt({
      ...log,
      url: 'https://h/',
      attempt: 1,
      status: 'failed',
      request: { method: 'POST', headers: {}, body: '{}' },
      query_params: {},
      response: null,
      error: 'x',
      duration_ms: 1,
      created: 1,
      sent_at: 0,
      completed_at: 1,
    });
    await store.close();
    const db = new Database(file);
    expect(() => db.prepare("UPDATE attempt_logs SET status = 'succeeded'").run()).toThrow(/immutable/);
    expect(() => db.prepare('DELETE FROM attempt_logs').run()).toThrow(/immutable/);
    db.close();
  });

  it('answers the scheduler and every log filter from an index', () => {
    const file = join(dir, 'plans.db');
    new SqliteDeliveryStore(file).close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT id FROM deliveries WHERE head = 1 AND due_at <= 1 ORDER BY due_at LIMIT 100')).toMatch(
      /USING INDEX deliveries_due/,
    );
    expect(
      plan(
        "SELECT id, head FROM deliveries WHERE webhook_id = 'w' AND resource = 'r' AND status = 'pending' ORDER BY position, seq LIMIT 1",
      ),
    ).toMatch(/USING INDEX deliveries_queue/);
    const scope = "organization_id = 'o' AND mode = 'sandbox' AND entity_id = 'e'";
    for (const [extra, index] of [
      ['', 'attempt_logs_entity'],
      [" AND webhook_id = 'w'", 'attempt_logs_webhook'],
      [" AND event = 'x'", 'attempt_logs_event'],
      [" AND status = 'failed'", 'attempt_logs_status'],
    ]) {
      const detail = plan(
        `SELECT entry FROM attempt_logs WHERE ${scope}${extra} AND id < 'z' ORDER BY id DESC LIMIT 21`,
      );
      expect(detail).toMatch(new RegExp(`USING INDEX ${index}`));
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
    db.close();
  });
});
