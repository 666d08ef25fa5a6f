import { transferStream } from '@app/application/transfers/streams';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import {
  eventually,
  killStartedApps,
  randomKey,
  sharedEnvironment,
  sleep,
  startApp,
  startWorker,
  type AppProcess,
} from './processes';

const BANK_USD = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '123456789', account_name: 'Grace Hopper', scheme: 'aba', code: '021000021' },
};

interface Manager {
  name: string;
  holding: boolean;
}

/**
 * Issue 23, distributed faults: two APIs, a projector, a publisher and two process-managers
 * workers on the shared stores (SQLite log, Mongo-wire read models, Kafka), under a steady load of
 * keyed payouts and fundings sent to either API. Mid-load: one API SIGKILLed and started again,
 * the other SIGSTOPped and continued, the process-managers worker holding the network SIGKILLed,
 * the projector SIGSTOPped (lists answer 503 `read_model_lagging` in the envelope within
 * READ_CONSISTENCY_TIMEOUT_MS, never hang) and continued. The client fails over to the other API
 * and retries under the same Idempotency-Key. Then everything converges: every acknowledged payout
 * successful, each once, the books balanced, `replay --verify` passes.
 */
/**
 * The SQLite files of `dir` whose write lock a process keeps: each is tried for 1 s (another
 * process's commit takes milliseconds; a frozen holder never lets go).
 */
function heldWriteLocks(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.db'))
    .filter((f) => {
      const db = new Database(join(dir, f), { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 1000');
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return false;
      } catch (error) {
        if (String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return true;
        throw error;
      } finally {
        db.close();
      }
    });
}

describe('faults mid-load: an API and worker roles killed and stopped, then convergence', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-faults-'));
  const key = randomKey();
  const env = {
    ...sharedEnvironment(dataDir, `dist_faults_${Date.now().toString(36)}`, key),
    SANDBOX_AUTO_ADVANCE: 'true',
    // A key left by the killed API is taken over after 3 s; a lagging list answers after 2 s.
    IDEMPOTENCY_LEASE_SECONDS: '3',
    READ_CONSISTENCY_TIMEOUT_MS: '2000',
  };
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const apis: AppProcess[] = [];
  let projector: AppProcess;
  let publisher: AppProcess;
  const managers: AppProcess[] = [];
  /** Requests answered by the other API than the one they were sent to first (a lost answer, a frozen API). */
  let failovers = 0;

  beforeAll(async () => {
    const started = await Promise.all([
      startApp('api', env),
      startApp('api', env),
      startWorker('projector', env),
      startWorker('publisher', env),
      startWorker('process-managers', env),
      startWorker('process-managers', env),
    ]);
    apis.push(started[0], started[1]);
    [projector, publisher] = [started[2], started[3]];
    managers.push(started[4], started[5]);
  });
  afterAll(async () => {
    try {
      // A start that failed left some unset: the processes it did start are killed below all the same.
      for (const app of [...apis, projector, publisher, ...managers].filter(Boolean)) {
        try {
          process.kill(app.pid, 'SIGCONT');
        } catch {
          // gone
        }
        await app.stop();
      }
    } finally {
      await killStartedApps();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  /**
   * One request as a client behind a load balancer sends it: to API `first`, and on a lost answer
   * (refused, reset, or no answer in 3 s: a stopped process) to the other one, under the same key.
   */
  async function send(
    first: number,
    method: string,
    path: string,
    body?: object,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: any; ms: number }> {
    const started = Date.now();
    // Every attempt's answer, so that a request that never ends says why (a rare failure seen once in a full run).
    const trail: string[] = [];
    for (let attempt = 0; ; attempt++) {
      if (Date.now() - started > 60_000) {
        const tails = apis.map((a, i) => `API ${i} (pid ${a.pid}) output, last 3 KB:\n${a.output().slice(-3_000)}`);
        throw new Error(
          `${method} ${path}: no answer in 60 s; attempts (ms, API, answer):\n${trail.join('\n')}\n${tails.join('\n')}`,
        );
      }
      const api = apis[(first + attempt) % 2];
      try {
        const res = await fetch(`${api.url}${path}`, {
          method,
          headers: idempotencyKey ? { ...auth, 'idempotency-key': idempotencyKey } : auth,
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(3_000),
        });
        const json = (await res.json()) as any;
        trail.push(`${Date.now() - started} API ${(first + attempt) % 2}: ${res.status} ${json.code ?? ''}`);
        // A client behind a rate limit waits as told (a burst of failovers and retries can reach it).
        if (res.status === 429) {
          await sleep(Number(res.headers.get('retry-after') ?? 1) * 1_000);
          attempt -= 1;
          continue;
        }
        const retry =
          (res.status === 409 && json.code === 'idempotency_key_in_use') ||
          (res.status >= 500 && (idempotencyKey || method === 'GET'));
        if (!retry) {
          if (attempt % 2 === 1) failovers += 1;
          return { status: res.status, body: json, ms: Date.now() - started };
        }
      } catch (error) {
        trail.push(`${Date.now() - started} API ${(first + attempt) % 2}: ${(error as Error).name}`);
        if (!idempotencyKey && method !== 'GET') return { status: 0, body: null, ms: Date.now() - started };
      }
      await sleep(200);
    }
  }

  it('keeps serving through the faults, and every acknowledged payout ends successful, once', async () => {
    const entity = (
      await send(
        0,
        'POST',
        '/entities',
        { first_name: 'Ada', last_name: 'Faults', email: 'ada@example.com', country: 'NG' },
        `e-${key}`,
      )
    ).body.id as string;
    const account = (
      await send(0, 'POST', '/accounts', { entity_id: entity, type: 'checking', currency: 'USD' }, `a-${key}`)
    ).body.id as string;
    expect(
      (await send(0, 'POST', `/sandbox/accounts/${account}/fund`, { amount: 10_000_000, currency: 'USD' }, `f-${key}`))
        .status,
    ).toBe(201);
    const counterparty = (
      await send(
        0,
        'POST',
        '/counterparties',
        { type: 'individual', entity_id: entity, profile: { first_name: 'Grace', last_name: 'Hopper' } },
        `c-${key}`,
      )
    ).body.id as string;
    const detail = (await send(0, 'POST', `/counterparties/${counterparty}/payment-details`, BANK_USD, `d-${key}`)).body
      .id as string;

    // The load: four clients, each payout keyed and with its own reference, alternating APIs.
    const acknowledged = new Map<string, string>();
    let running = true;
    let n = 0;
    const client = async (c: number) => {
      while (running) {
        const i = n++;
        const reference = `faults-${c}-${i}`;
        const res = await send(
          i % 2,
          'POST',
          '/transfer',
          {
            account_id: account,
            payment_detail_id: detail,
            amount: 100 + (i % 50),
            payment_type: 'bank-transfer',
            unique_reference: reference,
          },
          `t-${key}-${i}`,
        );
        if (res.status === 201) acknowledged.set(reference, res.body.id);
        else if (res.status === 409 && res.body.code === 'duplicate_unique_reference')
          acknowledged.set(reference, res.body.id);
        else throw new Error(`payout ${reference}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    const during = async (what: string, ms: number) => {
      const before = acknowledged.size;
      await sleep(ms);
      if (acknowledged.size === before) throw new Error(`no payout acknowledged while ${what}`);
    };
    try {
      await during('all up', 1_500);

      // One API killed: the other takes every request, retries included; then it comes back.
      await apis[0].kill();
      await during('API 0 was killed', 5_000);
      apis[0] = await startApp('api', env);

      // The other API frozen: its requests time out and go to the first one. Frozen inside a write
      // transaction, it keeps the shared SQLite log's write lock (the embedded store's nature; a
      // server store has no such lock): then nobody writes until it continues, and a write to the
      // live API answers 503 `service_unavailable` after the busy timeout instead of hanging.
      process.kill(apis[1].pid, 'SIGSTOP');
      try {
        await sleep(100);
        const locked = heldWriteLocks(dataDir);
        if (!locked.length) await during('API 1 was stopped', 6_000);
        else {
          console.log(
            `faults: API 1 was frozen holding the write lock of ${locked.join(', ')}; a write must answer 503 meanwhile`,
          );
          // Answering at all within the abort bound is "instead of hanging"; how fast is not timed (issue 32).
          const res = await fetch(`${apis[0].url}/sandbox/accounts/${account}/fund`, {
            method: 'POST',
            headers: { ...auth, 'idempotency-key': `frozen-${key}` },
            body: JSON.stringify({ amount: 1, currency: 'USD' }),
            signal: AbortSignal.timeout(20_000),
          });
          expect({ status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') }).toEqual({
            status: 503,
            body: expect.objectContaining({ status: 'error', code: 'service_unavailable' }),
            retryAfter: '5',
          });
        }
      } finally {
        process.kill(apis[1].pid, 'SIGCONT');
      }

      // The process-managers worker working the network killed: the other takes its leases once they expire.
      const held = await Promise.all(
        managers.map(async (m) =>
          ((await m.health()).process_managers as Manager[]).some((x) => x.name === 'transfer-rails' && x.holding),
        ),
      );
      const holder = held.indexOf(true);
      expect(holder).toBeGreaterThanOrEqual(0);
      await managers[holder].kill();
      managers[holder] = await startWorker('process-managers', env);
      await during('the network holder was killed', 1_500);

      // The projector frozen: writes go on, lists answer 503 in the envelope within their timeout.
      process.kill(projector.pid, 'SIGSTOP');
      try {
        await during('the projector was stopped', 1_000);
        // The abort bound catches a hang; read_model_lagging is the list's own timeout speaking.
        const res = await fetch(`${apis[0].url}/transfers?entity_id=${entity}&limit=1`, {
          headers: auth,
          signal: AbortSignal.timeout(10_000),
        });
        expect({ status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') }).toEqual({
          status: 503,
          body: expect.objectContaining({ status: 'error', code: 'read_model_lagging' }),
          retryAfter: '1',
        });
      } finally {
        process.kill(projector.pid, 'SIGCONT');
      }
      await during('all up again', 1_500);
    } finally {
      running = false;
      await load;
    }

    // Convergence: every acknowledged payout successful; each reference one transfer, moved once per step.
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(failovers).toBeGreaterThan(0);
    for (const [, id] of acknowledged) {
      await eventually(
        async () => (await send(0, 'GET', `/transfers/${id}?entity_id=${entity}`)).body.status,
        (s) => s === 'successful',
        `transfer ${id} successful`,
        120_000,
      );
    }
    const log = await readLog(dataDir);
    const created = log.filter((e) => e.type === 'TransferCreated');
    const byReference = new Map<string, string[]>();
    for (const e of created) {
      const t = (e.data as { transfer: { id: string; unique_reference: string } }).transfer;
      byReference.set(t.unique_reference, [...(byReference.get(t.unique_reference) ?? []), t.id]);
    }
    for (const [reference, id] of acknowledged) {
      expect({ reference, transfers: byReference.get(reference) }).toEqual({ reference, transfers: [id] });
      expect(log.filter((e) => e.streamId === transferStream(id)).map((e) => e.type)).toEqual([
        'TransferCreated',
        'TransferProcessing',
        'TransferSucceeded',
      ]);
    }
    // Lists caught up through both APIs, and the books balance.
    for (const i of [0, 1]) {
      await eventually(
        async () => (await send(i, 'GET', `/transfers?entity_id=${entity}&status=successful&limit=1`)).status,
        (s) => s === 200,
        `lists through API ${i}`,
      );
    }
    const ledger = (await send(1, 'GET', '/ledger')).body.data as {
      currencies: Array<{
        debits_posted: number;
        credits_posted: number;
        debits_pending: number;
        credits_pending: number;
      }>;
    };
    for (const c of ledger.currencies)
      expect([c.debits_posted, c.debits_pending]).toEqual([c.credits_posted, c.credits_pending]);
    const health = await Promise.all([...apis, projector].map((a) => a.health()));
    // Quiet before the replay: no money pending (a money step a fault deferred is applied by its
    // process manager after a deadline), the projector at the head, and the head still for 2 s, so
    // the replay reads the log nobody writes any more and compares it with read models at its end.
    let last = -1;
    await eventually(
      async () => {
        const books = (await send(1, 'GET', '/ledger')).body.data as { currencies: Array<{ debits_pending: number }> };
        const log = (await projector.health()).log as { head: number; projected: number };
        const still = log.head === last;
        last = log.head;
        await sleep(2_000);
        return {
          pending: books.currencies.reduce((n, c) => n + c.debits_pending, 0),
          projected: log.projected === log.head,
          still,
        };
      },
      (q) => q.pending === 0 && q.projected && q.still,
      'no money pending, the projector at a head that stays',
      120_000,
    );
    expect(health.every((h) => h.status === 'ok')).toBe(true);
    await expectReplayVerifies(env);
  });
});

async function readLog(dataDir: string): Promise<RecordedEvent[]> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const all: RecordedEvent[] = [];
    for (;;) {
      const page = await store.readAll({ after: all.length ? all[all.length - 1].position : 0, limit: 5_000 });
      if (!page.length) return all;
      all.push(...page);
    }
  } finally {
    await store.close();
  }
}

/** `npm run replay -- --verify` (the built entry) against this deployment. */
async function expectReplayVerifies(env: Record<string, string>): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(__dirname, '..', '..', 'dist', 'apps', 'replay', 'src', 'main.js'), '--verify'],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(Buffer.concat(out).toString()).toContain('OK: chains whole, read models equal the replay, ledger balances');
  expect(status).toBe(0);
}
