import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { eventually, killStartedApps, randomKey, startApp, type AppProcess } from './processes';

const BANK_USD = { payment_method: 'bank-transfer', currency: 'USD', country: 'US', bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' } };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

/**
 * `npm start` on the embedded default (SQLite log, read store and bus in DATA_DIR): the API serves
 * HTTP and commands, and a second process it supervises runs every reader of the log (projector,
 * publisher, webhook worker, process managers), so they never share the event loop with HTTP.
 */
describe('npm start: the API and the readers process it supervises', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-aio-'));
  const key = randomKey();
  // Empty adapter URLs: the embedded default, whatever servers the integration run started.
  const env = { DATA_DIR: dataDir, PAYMENTS_BOOTSTRAP_API_KEYS: key, PAYMENTS_MASTER_KEY: randomBytes(32).toString('base64'), MONGO_URL: '', KAFKA_BROKERS: '', SANDBOX_AUTO_ADVANCE: 'true' };
  const auth = { Authorization: `Bearer ${key}` };
  let app: AppProcess;
  const readers = async () => (await app.health()).readers as { state: string; pid: number; restarts: number };

  async function payer(api: ReturnType<typeof request>): Promise<{ entity: string; account: string; detail: string }> {
    const entity = (await api.post('/entities').set(auth).send({ first_name: 'Ada', last_name: 'Payer', email: 'ada@example.com', country: 'NG' }).expect(201)).body.id;
    const account = (await api.post('/accounts').set(auth).send({ entity_id: entity, type: 'checking', currency: 'USD' }).expect(201)).body.id;
    await api.post(`/sandbox/accounts/${account}/fund`).set(auth).send({ amount: 1_000_000, currency: 'USD' }).expect(201);
    const counterparty = (await api.post('/counterparties').set(auth).send({ type: 'individual', entity_id: entity, profile: { first_name: 'Grace', last_name: 'Hopper' } }).expect(201)).body.id;
    const detail = (await api.post(`/counterparties/${counterparty}/payment-details`).set(auth).send(BANK_USD).expect(201)).body.id;
    return { entity, account, detail };
  }

  beforeAll(async () => {
    app = await startApp('all-in-one', env);
  });
  afterAll(async () => {
    await app?.stop();
    await killStartedApps();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('works every reader in a child process of the API, which reports them in /health', async () => {
    const health = await app.health();
    expect(health.readers).toMatchObject({ state: 'running', restarts: 0 });
    expect(health.readers.pid).not.toBe(app.pid);
    expect(parentOf(health.readers.pid)).toBe(app.pid);
    const managers = health.process_managers as Array<{ name: string; holding: boolean }>;
    expect(managers.map((m) => m.name)).toEqual(expect.arrayContaining(['kyc-review', 'transfer-money', 'transfer-rails', 'card-money']));
    expect(managers.every((m) => m.holding)).toBe(true);
  });

  it('reads every write back at once, lists included: the API waits on the other process projecting it', async () => {
    const api = request(app.url);
    for (let i = 0; i < 10; i++) {
      const entity = (await api.post('/entities').set(auth).send({ first_name: 'Ada', last_name: `Okafor${i}`, email: 'ada@example.com', country: 'NG' }).expect(201)).body.id;
      expect(((await api.get('/entities?limit=100').set(auth).expect(200)).body.data as Array<{ id: string }>).map((e) => e.id)).toContain(entity);
      const account = (await api.post('/accounts').set(auth).send({ entity_id: entity, type: 'checking', currency: 'USD' }).expect(201)).body.id;
      await api.post(`/sandbox/accounts/${account}/fund`).set(auth).send({ amount: 500 + i, currency: 'USD' }).expect(201);
      const listed = (await api.get(`/accounts?entity_id=${entity}`).set(auth).expect(200)).body.data as Array<Record<string, any>>;
      expect(listed.map((a) => [a.id, a.balance.current])).toEqual([[account, 500 + i]]);
    }
  });

  it('moves payouts through the sandbox network from the readers process', async () => {
    const api = request(app.url);
    const { entity, account, detail } = await payer(api);
    const body = { account_id: account, payment_detail_id: detail, amount: 1_000, payment_type: 'bank-transfer', description: 'Invoice', unique_reference: `aio-${Date.now()}` };
    const id = (await api.post('/transfer').set(auth).send(body).expect(201)).body.id;
    await eventually(async () => (await api.get(`/transfers/${id}?entity_id=${entity}`).set(auth).expect(200)).body.status, (s) => s === 'successful', `transfer ${id} successful`);
  });

  it('starts the readers process again when it dies; it resumes from its checkpoints', async () => {
    const before = await readers();
    process.kill(before.pid, 'SIGKILL');
    const after = await eventually(readers, (r) => r.state === 'running' && r.restarts === 1 && r.pid !== before.pid, 'the readers process restarted');
    expect(parentOf(after.pid)).toBe(app.pid);
    const api = request(app.url);
    const entity = (await api.post('/entities').set(auth).send({ first_name: 'Ada', last_name: 'After', email: 'ada@example.com', country: 'NG' }).expect(201)).body.id;
    expect(((await api.get('/entities?limit=100').set(auth).expect(200)).body.data as Array<{ id: string }>).map((e) => e.id)).toContain(entity);
    const health = await app.health();
    expect(health.log.projected).toBe(health.log.head);
  });

  it('stops the readers process with the API, and when the API is killed', async () => {
    const { pid } = await readers();
    await app.stop();
    await eventually(async () => alive(pid), (up) => !up, 'the readers process stopped with the API');

    // Started again on the same DATA_DIR, then killed without a chance to stop its child.
    app = await startApp('all-in-one', env);
    const restarted = await readers();
    await app.kill();
    await eventually(async () => alive(restarted.pid), (up) => !up, 'the readers process left after the killed API');
  });
});

