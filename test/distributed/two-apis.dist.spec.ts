import { transferStream } from '@app/application/transfers/streams';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import {
  eventually,
  killStartedApps,
  randomKey,
  sharedEnvironment,
  startApp,
  startWorker,
  type AppProcess,
} from './processes';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');
const BANK_USD = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
};

interface ManagerStatus {
  name: string;
  holding: boolean;
  handled: number;
}

/**
 * Two API replicas (`start:api`) behind one log, one read store and one bus, with the projector and
 * the publisher workers, and two process-managers workers (`WORKER_ROLES=process-managers`, the
 * sandbox network on): what one replica writes, the other reads back at once; every process
 * manager runs in both workers, and each one's work is done by exactly one of them.
 */
describe('two API replicas behind the same stores', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-dist-'));
  const key = randomKey();
  const env = {
    ...sharedEnvironment(dataDir, `dist_two_${Date.now().toString(36)}`, key),
    SANDBOX_AUTO_ADVANCE: 'true',
  };
  const auth = { Authorization: `Bearer ${key}` };
  let apis: AppProcess[] = [];
  let workers: AppProcess[] = [];
  /** The two process-managers workers. */
  let managers: AppProcess[] = [];
  /** Writer and reader swap on each call, so every write is read back through the other replica. */
  const pair = (i: number) => [request(apis[i % 2].url), request(apis[(i + 1) % 2].url)] as const;

  beforeAll(async () => {
    // Started together, as a rollout does: the APIs race for the bootstrap key, the workers for every lease.
    const started = await Promise.all([
      startApp('api', env),
      startApp('api', env),
      startWorker('projector', env),
      startWorker('publisher', env),
      startWorker('process-managers', env),
      startWorker('process-managers', env),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2, 4);
    managers = started.slice(4);
  });
  afterAll(async () => {
    for (const app of [...apis, ...workers, ...managers]) await app.stop();
    await killStartedApps();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads a write made through one replica back through the other at once: by id and in lists', async () => {
    for (let i = 0; i < 6; i++) {
      const [writer, reader] = pair(i);
      const entity = (
        await writer
          .post('/entities')
          .set(auth)
          .send({ first_name: 'Ada', last_name: `Okafor${i}`, email: 'ada@example.com', country: 'NG' })
          .expect(201)
      ).body;
      expect((await reader.get(`/entities/${entity.id}`).set(auth).expect(200)).body).toMatchObject({
        id: entity.id,
        status: 'approved',
      });
      const listed = (await reader.get('/entities?limit=100').set(auth).expect(200)).body.data as Array<{ id: string }>;
      expect(listed.map((e) => e.id)).toContain(entity.id);

      const account = (
        await writer
          .post('/accounts')
          .set(auth)
          .send({ entity_id: entity.id, type: 'checking', currency: 'USD' })
          .expect(201)
      ).body;
      await writer
        .post(`/sandbox/accounts/${account.id}/fund`)
        .set(auth)
        .send({ amount: 1_000 + i, currency: 'USD' })
        .expect(201);
      const read = (await reader.get(`/accounts/${account.id}`).set(auth).expect(200)).body;
      expect(read.balance).toEqual({ available: 1_000 + i, current: 1_000 + i });
      const accounts = (await reader.get(`/accounts?entity_id=${entity.id}`).set(auth).expect(200)).body.data as Array<
        Record<string, any>
      >;
      expect(accounts.map((a) => [a.id, a.balance.current])).toEqual([[account.id, 1_000 + i]]);
    }
  });

  it('runs one Idempotency-Key once across both replicas: concurrent requests through each, one account, replays everywhere (decisions §13)', async () => {
    const entity = (
      await pair(0)[0]
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: 'Idem', email: 'ada@example.com', country: 'NG' })
        .expect(201)
    ).body.id;
    const idempotencyKey = `dist-${Date.now().toString(36)}`;
    const body = { entity_id: entity, type: 'checking', currency: 'USD' };
    const send = (i: number) =>
      pair(i)[0]
        .post('/accounts')
        .set({ ...auth, 'Idempotency-Key': idempotencyKey })
        .send(body);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i)));
    const ran = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const r of answers.filter((a) => a !== ran[0])) {
      if (r.status === 201) expect([r.headers['idempotent-replayed'], r.body]).toEqual(['true', ran[0].body]);
      else expect([r.status, r.body.code]).toEqual([409, 'idempotency_key_in_use']);
    }
    for (let i = 0; i < 2; i++) {
      const again = await send(i).expect(201);
      expect([again.headers['idempotent-replayed'], again.body.id]).toEqual(['true', ran[0].body.id]);
    }
    const accounts = (await pair(1)[0].get(`/accounts?entity_id=${entity}`).set(auth).expect(200)).body.data as Array<{
      id: string;
    }>;
    expect(accounts.map((a) => a.id)).toEqual([ran[0].body.id]);
  });

  it('runs each process manager in both process-managers workers and works it in exactly one: every automatic step happens once', async () => {
    const entityId = await onboardWithAutomaticReview();
    const transfers = await payOutThroughTheSandboxNetwork(5);

    const log = await readLog(dataDir);
    const entityStream = log.filter((e) => e.streamId === `entity-${entityId}`);
    expect(entityStream.filter((e) => e.type === 'EntityApproved').map((e) => e.metadata.actor)).toEqual([
      'system:kyc-review',
    ]);
    for (const id of transfers.ids) {
      expect(log.filter((e) => e.streamId === transferStream(id)).map((e) => e.type)).toEqual([
        'TransferCreated',
        'TransferProcessing',
        'TransferSucceeded',
      ]);
    }
    const account = log.filter((e) => e.streamId === `account-${transfers.account}`).map((e) => e.type);
    expect(account.filter((t) => t === 'FundsHeld')).toHaveLength(transfers.ids.length);
    expect(account.filter((t) => t === 'HoldSettled')).toHaveLength(transfers.ids.length);

    // Both workers run every manager; for each, one holds the lease and did all its work.
    const count = (types: string[]) => log.filter((e) => types.includes(e.type)).length;
    const expectedWork: Record<string, number> = {
      'kyc-review': count(['OnboardingSubmitted']),
      'transfer-rails': count(['TransferCreated', 'TransferProcessing']),
    };
    const statuses = await eventually(
      () => Promise.all(managers.map(async (worker) => (await worker.health()).process_managers as ManagerStatus[])),
      (both) =>
        Object.entries(expectedWork).every(
          ([name, n]) =>
            both
              .flat()
              .filter((s) => s.name === name)
              .reduce((sum, s) => sum + s.handled, 0) >= n,
        ),
      'the process managers to report their work',
    );
    const names = (s: ManagerStatus[]) => s.map((m) => m.name).sort();
    expect(names(statuses[0])).toEqual(names(statuses[1]));
    expect(names(statuses[0])).toEqual(
      expect.arrayContaining(['kyc-review', 'transfer-money', 'transfer-rails', 'transfer-recovery']),
    );
    for (const name of names(statuses[0])) {
      const [one, two] = statuses.map((s) => s.find((m) => m.name === name)!);
      expect({ name, holders: [one.holding, two.holding].filter(Boolean).length }).toEqual({ name, holders: 1 });
      expect({ name, idle: (one.holding ? two : one).handled }).toEqual({ name, idle: 0 });
      if (name in expectedWork)
        expect({ name, handled: (one.holding ? one : two).handled }).toEqual({ name, handled: expectedWork[name] });
    }
    for (const app of [...apis, ...managers]) expect((await app.health()).status).toBe('ok');
  });

  it('when the worker working the network stops, the other takes its leases over and finishes the transfers it left', async () => {
    const statuses = await Promise.all(
      managers.map(async (worker) => (await worker.health()).process_managers as ManagerStatus[]),
    );
    const holder = statuses.findIndex((s) => s.some((m) => m.name === 'transfer-rails' && m.holding));
    const survivor = managers[1 - holder];
    const api = request(apis[0].url);
    const { entity, account, detail } = await payerWithDetail(api);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = {
        account_id: account,
        payment_detail_id: detail,
        amount: 500 + i,
        payment_type: 'bank-transfer',
        description: `Invoice ${i}`,
        unique_reference: `dist-stop-${i}-${Date.now()}`,
      };
      ids.push((await api.post('/transfer').set(auth).send(body).expect(201)).body.id);
    }
    // A graceful stop aborts the network steps it has not taken yet and releases its leases.
    await managers[holder].stop();
    for (const id of ids) {
      await eventually(
        async () =>
          (await request(apis[1].url).get(`/transfers/${id}?entity_id=${entity}`).set(auth).expect(200)).body.status,
        (s) => s === 'successful',
        `transfer ${id} successful`,
      );
    }
    const log = await readLog(dataDir);
    for (const id of ids) {
      expect(log.filter((e) => e.streamId === transferStream(id)).map((e) => e.type)).toEqual([
        'TransferCreated',
        'TransferProcessing',
        'TransferSucceeded',
      ]);
    }
    // Each manager's runner retries on its own timer: the rest follow within one renewal interval.
    const held = () => survivor.health().then((h) => h.process_managers as ManagerStatus[]);
    await eventually(held, (all) => all.every((m) => m.holding), 'the survivor holding every lease', 15_000);
  });

  /** An approved entity with a funded USD account, a counterparty and a bank payment detail, through alternating replicas. */
  async function payerWithDetail(
    only?: ReturnType<typeof request>,
  ): Promise<{ entity: string; account: string; detail: string }> {
    const [a, b] = only ? [only, only] : pair(0);
    const entity = (
      await a
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: 'Payer', email: 'ada@example.com', country: 'NG' })
        .expect(201)
    ).body.id;
    const account = (
      await b.post('/accounts').set(auth).send({ entity_id: entity, type: 'checking', currency: 'USD' }).expect(201)
    ).body.id;
    await a
      .post(`/sandbox/accounts/${account}/fund`)
      .set(auth)
      .send({ amount: 1_000_000, currency: 'USD' })
      .expect(201);
    const counterparty = (
      await b
        .post('/counterparties')
        .set(auth)
        .send({ type: 'individual', entity_id: entity, profile: { first_name: 'Grace', last_name: 'Hopper' } })
        .expect(201)
    ).body.id;
    const detail = (
      await a.post(`/counterparties/${counterparty}/payment-details`).set(auth).send(BANK_USD).expect(201)
    ).body.id;
    return { entity, account, detail };
  }

  /** Created, documented and submitted through alternating replicas; the review approves it about a second later. */
  async function onboardWithAutomaticReview(): Promise<string> {
    const created = await pair(0)[0]
      .post('/individual-entities')
      .set(auth)
      .send({
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        date_of_birth: '1990-01-31',
        country_of_residence: 'NG',
      })
      .expect(201);
    const { id, person_id: personId } = created.body as { id: string; person_id: string };
    for (const [i, [kind, file]] of (
      [
        ['identity', PNG],
        ['address', PDF],
      ] as const
    ).entries()) {
      await pair(i)[0]
        .post('/documents/upload')
        .set(auth)
        .field('key', kind)
        .field('link_to_identity[person_id]', personId)
        .attach('file', file, { filename: `${kind}.bin`, contentType: 'application/octet-stream' })
        .expect(201);
    }
    await pair(1)[0].post('/onboarding-submissions').set(auth).send({ entity_id: id }).expect(200);
    await eventually(
      async () => (await pair(0)[1].get(`/entities/${id}`).set(auth).expect(200)).body.status,
      (s) => s === 'approved',
      'the automatic review',
    );
    return id;
  }

  /** Transfers created through alternating replicas and moved to successful by the simulated network. */
  async function payOutThroughTheSandboxNetwork(n: number): Promise<{ account: string; ids: string[] }> {
    const { entity, account, detail } = await payerWithDetail();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const body = {
        account_id: account,
        payment_detail_id: detail,
        amount: 1_000 + i,
        payment_type: 'bank-transfer',
        description: `Invoice ${i}`,
        unique_reference: `dist-${i}-${Date.now()}`,
      };
      ids.push((await pair(i)[0].post('/transfer').set(auth).send(body).expect(201)).body.id);
    }
    for (const [i, id] of ids.entries()) {
      await eventually(
        async () => (await pair(i)[1].get(`/transfers/${id}?entity_id=${entity}`).set(auth).expect(200)).body.status,
        (s) => s === 'successful',
        `transfer ${id} successful`,
      );
    }
    return { account, ids };
  }
});

async function readLog(dataDir: string): Promise<RecordedEvent[]> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    return await store.readAll();
  } finally {
    await store.close();
  }
}
