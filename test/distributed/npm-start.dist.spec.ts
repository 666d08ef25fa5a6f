import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { eventually, killStartedApps, randomKey, startApp, type AppProcess } from './processes';

const BANK_USD = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const ADMIN_TOKEN = 'npm-start-admin-token-0123456789abcdef0123';
const statOf = (path: string) => readFileSync(`${path}/stat`, 'utf8').split(') ')[1].split(' ');
const parentOf = (pid: number) => Number(statOf(`/proc/${pid}`)[1]);
/** The niceness of each thread of a process (field 19 of stat). */
const nicenessOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((t) => Number(statOf(`/proc/${pid}/task/${t}`)[16]));

interface WorkerHealth {
  state: string;
  pid: number;
  restarts: number;
  unresponsive_kills: number;
  roles: string[] | null;
  rss_bytes: number | null;
}

/**
 * `npm start` on the embedded default (SQLite log, read store and bus in DATA_DIR): the API serves
 * HTTP and commands and runs no reader of the log; one worker with every role (projector,
 * publisher, webhooks, process managers), a child process it supervises, reads it, so they never
 * share the event loop with HTTP. A worker that dies or stops answering is started again.
 */
describe('npm start: the API and the worker it supervises', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-npm-start-'));
  const key = randomKey();
  // Empty adapter URLs: the embedded default, whatever servers the integration run started.
  const env = {
    DATA_DIR: dataDir,
    PAYMENTS_BOOTSTRAP_API_KEYS: key,
    PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'),
    MONGO_URL: '',
    KAFKA_BROKERS: '',
    SANDBOX_AUTO_ADVANCE: 'true',
    // A frozen worker is found within 2 s rather than the default 10.
    WORKER_HEARTBEAT_TIMEOUT_MS: '2000',
    // npm start ignores it: its one worker runs every role.
    WORKER_ROLES: 'publisher',
    // Checkpoints by count (every 10 events), never by the clock here, so the one at shutdown shows.
    PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN,
    AUDIT_CHECKPOINT_INTERVAL_MS: '600000',
    AUDIT_CHECKPOINT_EVERY_EVENTS: '10',
  };
  const auth = { Authorization: `Bearer ${key}` };
  let app: AppProcess;
  const worker = async () => (await app.health()).worker as WorkerHealth;

  async function payer(api: ReturnType<typeof request>): Promise<{ entity: string; account: string; detail: string }> {
    const entity = (
      await api
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: 'Payer', email: 'ada@example.com', country: 'NG' })
        .expect(201)
    ).body.id;
    const account = (
      await api.post('/accounts').set(auth).send({ entity_id: entity, type: 'checking', currency: 'USD' }).expect(201)
    ).body.id;
    await api
      .post(`/sandbox/accounts/${account}/fund`)
      .set(auth)
      .send({ amount: 1_000_000, currency: 'USD' })
      .expect(201);
    const counterparty = (
      await api
        .post('/counterparties')
        .set(auth)
        .send({ type: 'individual', entity_id: entity, profile: { first_name: 'Grace', last_name: 'Hopper' } })
        .expect(201)
    ).body.id;
    const detail = (
      await api.post(`/counterparties/${counterparty}/payment-details`).set(auth).send(BANK_USD).expect(201)
    ).body.id;
    return { entity, account, detail };
  }

  async function readsItsWrites(lastName: string): Promise<void> {
    const api = request(app.url);
    const entity = (
      await api
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: lastName, email: 'ada@example.com', country: 'NG' })
        .expect(201)
    ).body.id;
    expect(
      ((await api.get('/entities?limit=100').set(auth).expect(200)).body.data as Array<{ id: string }>).map(
        (e) => e.id,
      ),
    ).toContain(entity);
  }

  beforeAll(async () => {
    app = await startApp('npm-start', env);
  });
  afterAll(async () => {
    await app?.stop();
    await killStartedApps();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every role in one child process of the API, which reports it in /health', async () => {
    const health = await app.health();
    expect(health.worker).toMatchObject({
      state: 'running',
      restarts: 0,
      roles: ['projector', 'publisher', 'webhooks', 'process-managers', 'audit'],
    });
    expect(health.worker.pid).not.toBe(app.pid);
    expect(parentOf(health.worker.pid)).toBe(app.pid);
    const managers = health.process_managers as Array<{ name: string; holding: boolean }>;
    expect(managers.map((m) => m.name)).toEqual(
      expect.arrayContaining([
        'kyc-review',
        'transfer-money',
        'transfer-rails',
        'card-money',
        'collections-refund-requests',
      ]),
    );
    // One read of the log's tail for the projector, the publisher and every process manager.
    expect(health.worker.tail).toMatchObject({ tails: 1, subscribers: 2 + managers.length });
    expect(managers.every((m) => m.holding)).toBe(true);
    // The checkpoint writer (the audit role) holds its lease and signs.
    expect(health.worker.audit).toEqual({ holding: true, halted: null });
  });

  it('runs every thread of the worker at WORKER_NICE (5 by default), below the API', async () => {
    const { pid } = (await app.health()).worker;
    const [api] = nicenessOf(app.pid);
    const threads = nicenessOf(pid);
    expect(threads.length).toBeGreaterThan(4);
    expect(threads).toEqual(threads.map(() => Math.max(5, api)));
  });

  it("serves the worker's series in the API's /metrics, beside its own (asked over IPC at each scrape)", async () => {
    // With PAYMENTS_ADMIN_TOKEN set, /metrics on the API's port takes the operator token (issue 32 item 10).
    const text = (
      await request(app.url)
        .get('/metrics')
        .set({ Authorization: `Bearer ${ADMIN_TOKEN}` })
        .expect(200)
    ).text;
    // The worker's: its process managers, read from the stored checkpoints.
    expect(text).toMatch(/^payments_process_manager_backlog\{manager="kyc-review"\} \d+$/m);
    expect(text).toMatch(/^payments_process_manager_holding\{manager="kyc-review"\} 1$/m);
    // The API's: HTTP by route template, the log as /health reads it.
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/health",status="200"\} \d+$/m);
    expect(text).toMatch(/^payments_log_lag\{reader="projector"\} \d+$/m);
    await request(app.url).get('/health/live').expect(200);
    await request(app.url).get('/health/ready').expect(200);
  });

  it('reads every write back at once, lists included: the API waits on the worker projecting it', async () => {
    const api = request(app.url);
    for (let i = 0; i < 10; i++) {
      const entity = (
        await api
          .post('/entities')
          .set(auth)
          .send({ first_name: 'Ada', last_name: `Okafor${i}`, email: 'ada@example.com', country: 'NG' })
          .expect(201)
      ).body.id;
      expect(
        ((await api.get('/entities?limit=100').set(auth).expect(200)).body.data as Array<{ id: string }>).map(
          (e) => e.id,
        ),
      ).toContain(entity);
      const account = (
        await api.post('/accounts').set(auth).send({ entity_id: entity, type: 'checking', currency: 'USD' }).expect(201)
      ).body.id;
      await api
        .post(`/sandbox/accounts/${account}/fund`)
        .set(auth)
        .send({ amount: 500 + i, currency: 'USD' })
        .expect(201);
      const listed = (await api.get(`/accounts?entity_id=${entity}`).set(auth).expect(200)).body.data as Array<
        Record<string, any>
      >;
      expect(listed.map((a) => [a.id, a.balance.current])).toEqual([[account, 500 + i]]);
    }
  });

  it('moves payouts through the sandbox network from the worker, committing through the API', async () => {
    const api = request(app.url);
    const { entity, account, detail } = await payer(api);
    const body = {
      account_id: account,
      payment_detail_id: detail,
      amount: 1_000,
      payment_type: 'bank-transfer',
      description: 'Invoice',
      unique_reference: `npm-start-${Date.now()}`,
    };
    const id = (await api.post('/transfer').set(auth).send(body).expect(201)).body.id;
    await eventually(
      async () => (await api.get(`/transfers/${id}?entity_id=${entity}`).set(auth).expect(200)).body.status,
      (s) => s === 'successful',
      `transfer ${id} successful`,
    );
    expect((await worker()).rss_bytes).toBeGreaterThan(0);
  });

  /** The latest signed checkpoint, as the API serves it from CHECKPOINT_DIR (the worker's audit role writes it). */
  const latestCheckpoint = async () =>
    (
      await request(app.url)
        .get('/admin/audit/checkpoints?limit=1')
        .set({ Authorization: `Bearer ${ADMIN_TOKEN}` })
        .expect(200)
    ).body.data[0] as { tree_size: number; last_position: number } | undefined;

  it("signs checkpoints in the worker's audit role; the API serves them", async () => {
    await readsItsWrites('Signed');
    // By count (ten events unsigned at a tick): the interval is ten minutes.
    await eventually(latestCheckpoint, (c) => (c?.tree_size ?? 0) >= 10, 'a checkpoint signed by the worker');
  });

  it('starts the worker again when it is SIGKILLed; it resumes from its checkpoints', async () => {
    const before = await worker();
    process.kill(before.pid, 'SIGKILL');
    const after = await eventually(
      worker,
      (w) => w.state === 'running' && w.restarts === 1 && w.pid !== before.pid,
      'the worker restarted',
    );
    expect(after.unresponsive_kills).toBe(0);
    expect(parentOf(after.pid)).toBe(app.pid);
    await readsItsWrites('AfterKill');
    const health = await app.health();
    expect(health.log.projected).toBe(health.log.head);
  });

  it('kills a worker that stops answering (SIGSTOP) and starts another; writes and lists carry on', async () => {
    const before = await worker();
    process.kill(before.pid, 'SIGSTOP');
    try {
      // Writes do not need the worker: the API commits them itself.
      await request(app.url)
        .post('/entities')
        .set(auth)
        .send({ first_name: 'Ada', last_name: 'Frozen', email: 'ada@example.com', country: 'NG' })
        .expect(201);
      const after = await eventually(
        worker,
        (w) => w.state === 'running' && w.restarts === 2 && w.pid !== before.pid,
        'the frozen worker replaced',
        30_000,
      );
      expect(after.unresponsive_kills).toBe(1);
      expect(alive(before.pid)).toBe(false);
      await readsItsWrites('AfterFreeze');
    } finally {
      if (alive(before.pid)) process.kill(before.pid, 'SIGKILL');
    }
  });

  it('stops the worker with the API, which signs the whole log as it stops, and when the API is killed', async () => {
    // The replaced worker takes the writer's lease once the frozen one's lapses (15 s): wait for
    // its first checkpoint by count, then leave fewer than ten events unsigned.
    const before = (await latestCheckpoint())?.tree_size ?? 0;
    for (let i = 0; (await latestCheckpoint())?.tree_size === before; i++) {
      if (i > 60) throw new Error('the replaced worker signed nothing in 30 s');
      await readsItsWrites(`Lease${i}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // A write the periodic writer leaves unsigned (fewer than ten events): only the last checkpoint, at shutdown, covers it.
    await readsItsWrites('Unsigned');
    const servedBeforeStop = (await latestCheckpoint())!;
    const { pid } = await worker();
    await app.stop();
    await eventually(
      async () => alive(pid),
      (up) => !up,
      'the worker stopped with the API',
    );
    const head = await lastPosition(join(dataDir, 'events.db'));
    const files = readdirSync(join(dataDir, 'checkpoints')).filter((f) => /^checkpoint-\d{20}\.json$/.test(f));
    const last = JSON.parse(readFileSync(join(dataDir, 'checkpoints', files.sort().pop()!), 'utf8')) as {
      last_position: number;
    };
    expect(last.last_position).toBe(head);
    expect(last.last_position).toBeGreaterThan(servedBeforeStop.last_position);

    // Started again on the same DATA_DIR, then killed without a chance to stop its child.
    app = await startApp('npm-start', env);
    const restarted = await worker();
    await app.kill();
    await eventually(
      async () => alive(restarted.pid),
      (up) => !up,
      'the worker left after the killed API',
    );
  });
});

async function lastPosition(file: string): Promise<number> {
  const store = new SqliteEventStore(file);
  try {
    let last = 0;
    for (;;) {
      const page = await store.readAll({ after: last, limit: 5_000 });
      if (!page.length) return last;
      last = page[page.length - 1].position;
    }
  } finally {
    await store.close();
  }
}
