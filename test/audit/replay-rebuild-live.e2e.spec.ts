import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from '../../apps/replay/src/replay';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { fund } from '../transfers/helpers';
import { auditWorkload } from './audit-workload';

jest.setTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function replay(rebuild: boolean) {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: t.dataDir,
    EVENTSTORE_URL: '',
    MONGO_URL: '',
    KAFKA_BROKERS: '',
  });
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  const lines: string[] = [];
  try {
    const status = await runReplay(
      { events, readModels, projections: READ_MODELS, out: (l) => lines.push(l) },
      { verify: true, rebuild },
    );
    return { status, output: lines.join('\n') };
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}

it('--rebuild replaces a corrupted live document while the API keeps writing, and later events still apply on top', async () => {
  const w = await auditWorkload(t);
  const db = new Database(join(t.dataDir, 'read-models.db'));
  db.prepare(
    `UPDATE documents SET body = json_set(body, '$.display_name', 'tampered') WHERE collection = 'accounts' AND id = ?`,
  ).run(w.destination);
  db.close();
  const writing = (async () => {
    for (let i = 0; i < 10; i++) await fund(t, w.destination, 1, 'USD');
  })();
  await replay(true); // its own second comparison may see the funding running beside it
  await writing;
  await t.settle();
  const listed = (await t.http.get(`/accounts?entity_id=${w.entity}&limit=100`).set(bearer(KEYS.sandbox)).expect(200))
    .body.data as Array<Record<string, unknown>>;
  const live = (await t.http.get(`/accounts/${w.destination}`).set(bearer(KEYS.sandbox)).expect(200)).body;
  // The rebuilt document replaced the corrupted one (the funding never writes display_name) and the funding applied on top.
  expect(listed.find((a) => a.id === w.destination)).toMatchObject({
    display_name: live.display_name,
    balance: live.balance,
  });
  expect(live.display_name).not.toBe('tampered');
  expect((await replay(false)).status).toBe(0);
});
