import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import request from 'supertest';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { MongoReadStore } from '@app/platform/read-store/mongo-read-store';
import { Projector } from '@app/platform/read-store/projector';
import { READ_MODELS } from '@app/read-models/read-models';
import {
  eventually,
  killStartedApps,
  randomKey,
  sharedEnvironment,
  startApp,
  startWorker,
  type AppProcess,
} from './processes';

/**
 * The projector worker (`WORKER_ROLES=projector`) is killed (SIGKILL: no flush, no checkpoint)
 * while the API keeps writing, then started again. It must resume from its checkpoints, and every read model must end
 * identical, document for document, to a rebuild of the same log into an empty database.
 */
describe('projector worker killed mid-stream', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-dist-'));
  const key = randomKey();
  const database = `dist_restart_${Date.now().toString(36)}`;
  const env = sharedEnvironment(dataDir, database, key);
  const auth = { Authorization: `Bearer ${key}` };
  const mongo = new MongoClient(process.env.MONGO_URL ?? 'mongodb://unset');
  let api: AppProcess;
  let projector: AppProcess;

  beforeAll(async () => {
    [api, projector] = await Promise.all([startApp('api', env), startWorker('projector', env)]);
  });
  afterAll(async () => {
    for (const app of [api, projector]) await app?.stop();
    await killStartedApps();
    await mongo.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes from its checkpoint and ends with read models identical to a rebuild from the log', async () => {
    const http = request(api.url);
    const startHead = (await api.health()).log.head as number;
    let killedAt: number | null = null;
    let writesAfterKill = 0;
    const accounts: Array<{ id: string; expected: number }> = [];

    // Writer: entities, accounts and fundings until well after the projector was killed.
    const writer = (async () => {
      for (let i = 0; killedAt === null || writesAfterKill < 40; i++) {
        if (i % 10 === 0) {
          const entity = await http
            .post('/entities')
            .set(auth)
            .send({ first_name: 'Ada', last_name: `Okafor${i}`, email: 'ada@example.com', country: 'NG' })
            .expect(201);
          const account = await http
            .post('/accounts')
            .set(auth)
            .send({ entity_id: entity.body.id, type: 'checking', currency: 'USD' })
            .expect(201);
          accounts.push({ id: account.body.id, expected: 0 });
        }
        const target = accounts[i % accounts.length];
        await http
          .post(`/sandbox/accounts/${target.id}/fund`)
          .set(auth)
          .send({ amount: 100 + i, currency: 'USD' })
          .expect(funded);
        target.expected += 100 + i;
        if (killedAt !== null) writesAfterKill += 1;
      }
    })();

    // Kill once the projector has projected part of what is being written.
    // A failing writer ends the wait at once instead of after its timeout.
    await Promise.race([
      eventually(
        async () => (await projector.health()).log.projected as number,
        (p) => p > startHead + 20,
        'the projector to make progress',
      ),
      writer,
    ]);
    await projector.kill();
    killedAt = await checkpointOf(mongo.db(database));
    await writer;

    const head = (await api.health()).log.head as number;
    expect(killedAt).toBeGreaterThan(startHead);
    expect(killedAt).toBeLessThan(head);

    projector = await startWorker('projector', env);
    await eventually(
      async () => (await projector.health()).log.projected as number,
      (p) => p >= head,
      'the restarted projector to reach the head',
    );
    expect(await checkpointOf(mongo.db(database))).toBe(head);

    // Lists answer from the resumed read models.
    for (const account of accounts) {
      const res = await http.get(`/accounts/${account.id}`).set(auth).expect(200);
      expect(res.body.balance.current).toBe(account.expected);
    }
    const listed = await http.get('/accounts?limit=100').set(auth).expect(200);
    expect(new Map(listed.body.data.map((a: any) => [a.id, a.balance.current]))).toEqual(
      new Map(accounts.map((a) => [a.id, a.expected])),
    );

    // The same log, projected from scratch into another database.
    const rebuilt = `${database}_rebuild`;
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    const readStore = new MongoReadStore(process.env.MONGO_URL!, rebuilt);
    const rebuild = new Projector(store, readStore, READ_MODELS);
    await rebuild.start();
    await rebuild.waitFor(head);
    await rebuild.stop();
    await readStore.close();
    await store.close();

    const [live, fresh] = [await dump(mongo.db(database)), await dump(mongo.db(rebuilt))];
    expect(live.checkpoints).toHaveLength(READ_MODELS.length);
    expect(live.accounts).toHaveLength(accounts.length);
    expect(live).toEqual(fresh);
  });
});

const funded = (res: { status: number }) => expect([200, 201]).toContain(res.status);

/** The lowest projection checkpoint: how far every read model is known to be complete. */
async function checkpointOf(db: Db): Promise<number> {
  const rows = await db
    .collection<{ _id: string; position: number }>('checkpoints')
    .find({ _id: { $in: READ_MODELS.map((p) => p.name) } })
    .toArray();
  if (rows.length < READ_MODELS.length) return 0;
  return Math.min(...rows.map((r) => r.position));
}

/**
 * Every read model's collection, each document (position and tombstones included) in id order,
 * and the read models' checkpoints. The same database also holds the checkpoints of the process
 * managers; those are not read models, so a rebuild has none.
 */
async function dump(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const { collection } of READ_MODELS)
    out[collection] = await db.collection(collection).find({}).sort({ _id: 1 }).toArray();
  const names = READ_MODELS.map((p) => p.name);
  out.checkpoints = await db
    .collection<{ _id: string }>('checkpoints')
    .find({ _id: { $in: names } })
    .sort({ _id: 1 })
    .toArray();
  return out;
}
