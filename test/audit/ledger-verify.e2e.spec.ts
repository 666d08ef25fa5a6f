import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { GENESIS_HASH, eventHash } from '@app/platform/event-store/hash-chain/event-hash';
import { Projector } from '@app/platform/read-store/projector';
import { READ_MODELS } from '@app/read-models/read-models';

jest.setTimeout(180_000);

/**
 * `npm run replay -- --verify` folds the ledger (decisions §12) at every position of a log written
 * before the ledger existed (test/fixtures/event-log-v2-before-ledger.jsonl, every money shape of
 * ledger-workload.ts, written by commit 5f5e421): it balances, and the table shows each book's
 * system accounts (fees credited). A posting altered with its hash chain recomputed, so the chains
 * and read models (projected from the altered log) cannot tell, is caught by the ledger alone and
 * named by its transaction and position.
 */
const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'event-log-v2-before-ledger.jsonl');

const readFixture = (): RecordedEvent[] =>
  readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RecordedEvent);

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

const configOf = (dataDir: string) =>
  loadConfig({ ...process.env, DATA_DIR: dataDir, EVENTSTORE_URL: '', MONGO_URL: '', KAFKA_BROKERS: '' });

/** A fresh DATA_DIR holding exactly these stored events (positions, revisions and hashes as given), its read models projected by the projector. */
async function dataDirWith(events: readonly RecordedEvent[]): Promise<string> {
  const dir = tempDir('ledger-verify-');
  const config = configOf(dir);
  await createEventStore(config).close(); // the store creates its schema
  const db = new Database(join(dir, 'events.db'));
  const insert = db.prepare(
    'INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() =>
    events.forEach((e) =>
      insert.run(e.position, e.streamId, e.revision, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)),
    ),
  )();
  db.close();
  const [store, readModels] = [createEventStore(config), createReadStore(config)];
  const projector = new Projector(store, readModels, READ_MODELS);
  await projector.start();
  await projector.waitFor(events[events.length - 1].position);
  await projector.stop();
  await Promise.all([store.close(), readModels.close()]);
  return dir;
}

/** Rewrites the event at `index` and chains its stream again from there, as a forger with the log file would. */
function forge(
  events: readonly RecordedEvent[],
  index: number,
  edit: (data: Record<string, any>) => void,
): RecordedEvent[] {
  const copy = events.map((e) => structuredClone(e)) as Array<RecordedEvent & { metadata: { hash?: string } }>;
  edit(copy[index].data);
  const stream = copy[index].streamId;
  let previous = GENESIS_HASH;
  for (const event of copy) {
    if (event.streamId !== stream) continue;
    if (event.position >= copy[index].position) event.metadata.hash = eventHash(previous, event);
    previous = event.metadata.hash!;
  }
  return copy;
}

/** The CLI as `npm run replay` runs it (package.json's entry, its TypeScript source through ts-register.js): exit status and output. */
function replay(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.replay;
  const entry = /^node dist\/(\S+)\.js$/.exec(script)![1];
  const child = spawn(
    process.execPath,
    ['-r', join(__dirname, 'ts-register.js'), join(ROOT, `${entry}.ts`), '--no-progress', ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        EVENTSTORE_URL: '',
        MONGO_URL: '',
        KAFKA_BROKERS: '',
        PAYMENTS_MASTER_KEY: '',
        ...env,
      },
    },
  );
  const [stdout, stderr] = [[] as Buffer[], [] as Buffer[]];
  child.stdout.on('data', (c: Buffer) => stdout.push(c));
  child.stderr.on('data', (c: Buffer) => stderr.push(c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() }),
    );
  });
}

/** A row of the ledger table: `| org_…/sandbox | USD | fees:USD | 8 | 863 | 0 | 0 |`. */
const row = (book: string, currency: string, account: string, figures: number[]) =>
  new RegExp(
    `\\| ${[book, currency, account.replace(/[()]/g, '\\$&'), ...figures].map((c) => `${c} +`).join('\\| ')}\\|`,
  );

const events = readFixture();
const of = (type: string) => events.filter((e) => e.type === type);
const orgOf = (type: string, nth = 0) => of(type)[nth].metadata.organization_id;
const [org, otherOrg] = [orgOf('AccountOpened'), orgOf('AccountOpened', 3)];

/**
 * What the log itself says the platform earned per organization: fees of settled payouts and of
 * collections, less fees of reversed payouts; pending: fees of payouts still held.
 */
function feesOf(organization: string) {
  const mine = events.filter((e) => e.metadata.organization_id === organization);
  const holds = new Map(mine.filter((e) => e.type === 'FundsHeld').map((e) => [e.data.hold_id, Number(e.data.fee)]));
  const closed = new Set(
    mine.filter((e) => e.type === 'HoldSettled' || e.type === 'HoldReleased').map((e) => e.data.hold_id),
  );
  const sum = (type: string, fee: (e: RecordedEvent) => number) =>
    mine.filter((e) => e.type === type).reduce((n, e) => n + fee(e), 0);
  return {
    credited:
      sum('HoldSettled', (e) => holds.get(e.data.hold_id) ?? 0) + sum('CollectionCredited', (e) => Number(e.data.fee)),
    debited: sum('HoldReversed', (e) => holds.get(e.data.hold_id) ?? 0),
    pending: [...holds].filter(([id]) => !closed.has(id)).reduce((n, [, fee]) => n + fee, 0),
  };
}

describe('replay --verify: the ledger of a log written before the ledger', () => {
  let clean: string;
  beforeAll(async () => {
    clean = await dataDirWith(events);
  });

  it('holds every money shape, from two organizations', () => {
    const types = [
      'AccountFunded',
      'FundsHeld',
      'HoldSettled',
      'HoldReleased',
      'HoldReversed',
      'BookTransferReceived',
      'CardTransactionCaptured',
      'CardTransactionReversed',
      'CollectionCredited',
      'CollectionRefunded',
    ];
    expect(types.filter((type) => !of(type).length)).toEqual([]);
    expect(of('CardAuthorizationHeld').some((e) => (e.data as { transaction: { fx: unknown } }).transaction.fx)).toBe(
      true,
    );
    expect(org).not.toBe(otherOrg);
    expect(events.length).toBeLessThan(500);
  });

  it('balances: exit 0, the table shows each book per currency with fees credited, and the scratch store is gone', async () => {
    const scratchParent = tempDir('ledger-verify-tmp-');
    const run = await replay(clean, ['--verify'], { TMPDIR: scratchParent });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('OK: chains whole, read models equal the replay, ledger balances');
    expect(run.stdout).toMatch(/log pass [\d.]+ s \(\d+ events\/s\)/);
    const fees = feesOf(org);
    expect(fees.credited).toBeGreaterThan(0);
    expect(fees.debited).toBeGreaterThan(0);
    expect(fees.pending).toBeGreaterThan(0);
    expect(run.stdout).toMatch(
      row(`${org}/sandbox`, 'USD', 'fees:USD', [fees.debited, fees.credited, 0, fees.pending]),
    );
    expect(run.stdout).toMatch(row(`${otherOrg}/sandbox`, 'USD', 'fees:USD', [0, feesOf(otherOrg).credited, 0, 0]));
    // The open payout and card authorization are pending; FX moved through both currencies' fx accounts.
    expect(run.stdout).toMatch(
      new RegExp(`\\| ${org}/sandbox +\\| USD +\\| total +\\| (\\d+) +\\| \\1 +\\| (\\d+) +\\| \\2 +\\|`),
    );
    expect(run.stdout).toMatch(
      new RegExp(`\\| ${org}/sandbox +\\| USD +\\| total +\\| \\d+ +\\| \\d+ +\\| [1-9]\\d* +\\|`),
    );
    expect(run.stdout).toMatch(new RegExp(`\\| ${org}/sandbox +\\| EUR +\\| fx:EUR +\\|`));
    expect(run.stdout).toMatch(new RegExp(`\\| ${org}/sandbox +\\| USD +\\| fx:USD +\\|`));
    expect(run.stdout).not.toContain('DIFFERENCE');
    expect(readdirSync(scratchParent)).toEqual([]);
  });

  it("--organization reports that organization's books only", async () => {
    const run = await replay(clean, ['--verify', '--organization', otherOrg]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${otherOrg}/sandbox`);
    expect(run.stdout).not.toContain(`${org}/sandbox`);
  });

  it('a HoldSettled that settles more than was held, chains recomputed: exit 1 naming the payout at its position', async () => {
    const index = events.findIndex((e) => e.type === 'HoldSettled' && String(e.data.hold_id).startsWith('trf_'));
    const settled = events[index].data as {
      hold_id: string;
      total: number;
      balance_after: { available: number; current: number };
    };
    const forged = forge(events, index, (d) => {
      d.total += 100;
      d.balance_after = { available: d.balance_after.available - 100, current: d.balance_after.current - 100 };
    });
    const dir = await dataDirWith(forged);
    const run = await replay(dir, ['--verify']);
    expect(run.status).toBe(1);
    const differences = run.stdout.split('\n').filter((l) => l.startsWith('DIFFERENCE'));
    const { available, current } = settled.balance_after;
    expect(differences).toEqual([
      `DIFFERENCE ledger: transaction ${settled.hold_id} at position ${events[index].position}: ${String(events[index].data.account_id)}: the event says ${available - 100}/${current - 100} but its postings give ${available}/${current} (available/current)`,
    ]);
    expect(run.stdout).toContain('FAILED: 1 difference(s), 0 in hash chains');
    // Another organization's books are not its concern.
    expect((await replay(dir, ['--verify', '--organization', otherOrg])).status).toBe(0);
    expect((await replay(dir, ['--verify', '--organization', org])).status).toBe(1);
  });

  it("a HoldSettled whose total alone was changed (the statement line's amount; its balance left right): exit 1 naming the payout", async () => {
    const index = events.findIndex((e) => e.type === 'HoldSettled' && String(e.data.hold_id).startsWith('trf_'));
    const settled = events[index].data as { hold_id: string; account_id: string; total: number };
    const run = await replay(await dataDirWith(forge(events, index, (d) => void (d.total += 100))), ['--verify']);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('DIFFERENCE'))).toEqual([
      `DIFFERENCE ledger: transaction ${settled.hold_id} at position ${events[index].position}: ${settled.account_id}: the event settles ${settled.total + 100} but ${settled.total} is pending`,
    ]);
  });

  it('a CollectionCredited whose fee was raised (net lowered to match the amount), chains recomputed: exit 1 naming the payment intent', async () => {
    const index = events.findIndex((e) => e.type === 'CollectionCredited');
    const credited = events[index].data as { payment_intent_id: string; account_id: string };
    const dir = await dataDirWith(
      forge(events, index, (d) => {
        d.fee += 50;
        d.net -= 50;
      }),
    );
    const run = await replay(dir, ['--verify']);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('DIFFERENCE'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^DIFFERENCE ledger: transaction ${credited.payment_intent_id} at position ${events[index].position}: ${credited.account_id}: the event says `,
        ),
      ),
      // The account list the replay rebuilt copies the event's balance_after, which the postings do not give either.
      expect.stringMatching(
        new RegExp(`^DIFFERENCE ledger: account ${credited.account_id}: projected balance .* but its postings give `),
      ),
    ]);
  });
});
