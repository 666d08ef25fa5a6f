import { join } from 'node:path';
import Database from 'better-sqlite3';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';

// Read once per process by the fold: a snapshot every 3 events, so a few fundings write some.
process.env.SNAPSHOT_EVERY = '3';

describe('snapshots on the embedded adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const snapshotOf = (stream: string) => {
    const db = new Database(join(t.dataDir, 'snapshots.db'), { readonly: true });
    try {
      return db.prepare('SELECT key, revision FROM snapshots WHERE stream_id = ?').get(stream) as
        { key: string; revision: number } | undefined;
    } finally {
      db.close();
    }
  };

  it('the command path snapshots an account beside the log, and a restarted process folds from it to the same balance', async () => {
    const entity = await approvedEntity(t);
    const account = (
      await t.http.post('/accounts').set(bearer(KEYS.sandbox)).send({ entity_id: entity, currency: 'USD' }).expect(201)
    ).body.id as string;
    for (let i = 1; i <= 7; i++)
      await t.http
        .post(`/sandbox/accounts/${account}/fund`)
        .set(bearer(KEYS.sandbox))
        .send({ amount: 100 * i, currency: 'USD' })
        .expect(201);
    const before = (await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200)).body;
    const snapshot = snapshotOf(`account-${account}`);
    expect(snapshot?.key).toMatch(/^account:\d+:[0-9a-f]{12}$/);
    expect(snapshot!.revision).toBeGreaterThanOrEqual(5);

    t = await t.restart();
    const after = (await t.http.get(`/accounts/${account}`).set(bearer(KEYS.sandbox)).expect(200)).body;
    expect(after).toEqual(before);
    await t.http
      .post(`/sandbox/accounts/${account}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 1, currency: 'USD' })
      .expect(201);
  });
});
