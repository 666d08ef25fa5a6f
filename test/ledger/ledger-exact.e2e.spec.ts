import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { eventHash, GENESIS_HASH } from '@app/platform/event-store/hash-chain/event-hash';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from '../../apps/replay/src/replay';
import { openAccount } from '../accounts/accounts-helpers';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { fund, payer } from '../transfers/helpers';

jest.setTimeout(60_000);

/**
 * Sums that grow with lifetime volume pass 2^53 (decisions §12): two accounts funded
 * 5,000,000,000,000,000 each, then one of them 1 five times. As JS numbers `funding:USD` stayed
 * 10,000,000,000,000,000 while the account showed …005; here every unit is in the JSON (read as
 * text: a plain JSON.parse would round it again), and `replay --verify` compares to the unit.
 */
const BIG = 5_000_000_000_000_000;

describe('the ledger past 2^53', () => {
  let t: TestApp;
  let organization: string;
  let first: string;
  let second: string;
  let beforeOnes: number;
  const dirs: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: `op_${'x'.repeat(40)}` });
    organization = (await t.http.get('/api-keys/current').set(bearer(KEYS.sandbox)).expect(200)).body.organization_id;
    const p = await payer(t, 'USD', BIG);
    first = p.account;
    second = (await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD' })).id;
    await fund(t, second, BIG, 'USD');
    beforeOnes = (await t.http.get('/ledger').set(bearer(KEYS.sandbox)).expect(200)).body.data.position;
    for (let i = 0; i < 5; i++) await fund(t, first, 1, 'USD');
  });
  afterAll(async () => {
    await t.close();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  const text = async (path: string, auth = bearer(KEYS.sandbox)) =>
    (
      await t.http
        .get(path)
        .set(auth)
        .expect(200)
        .expect('content-type', /application\/json/)
    ).text;

  it('GET /ledger writes funding:USD and the USD totals with every digit, as JSON integers', async () => {
    const body = await text('/ledger');
    expect(body).toContain(
      '{"id":"funding:USD","kind":"funding","currency":"USD","debits_posted":10000000000000005,"credits_posted":0,"debits_pending":0,"credits_pending":0}',
    );
    expect(body).toContain(
      '{"currency":"USD","debits_posted":10000000000000005,"credits_posted":10000000000000005,"debits_pending":0,"credits_pending":0}',
    );
    expect(body).toContain(
      `{"id":"${first}","kind":"customer","currency":"USD","debits_posted":0,"credits_posted":5000000000000005,`,
    );
    // The operator reads the same book; as_of before the ones, the sum they came to.
    expect(
      await text(`/admin/organizations/${organization}/ledger?mode=sandbox`, {
        Authorization: `Bearer op_${'x'.repeat(40)}`,
      }),
    ).toBe(body);
    expect(await text(`/ledger?as_of=position:${beforeOnes}`)).toContain(
      '"id":"funding:USD","kind":"funding","currency":"USD","debits_posted":10000000000000000,',
    );
  });

  it('replay --verify passes and prints every digit; a posting forged one higher at that size fails it, naming the ledger documents', async () => {
    await t.settle();
    await t.app.close();
    const honest = copyOfDataDir(t.dataDir, dirs);
    const clean = await verify(honest);
    expect(clean.output).toMatch(
      new RegExp(
        `\\| ${organization}/sandbox +\\| USD +\\| funding:USD +\\| 10000000000000005 +\\| 0 +\\| 0 +\\| 0 +\\|`,
      ),
    );
    expect(clean.status).toBe(0);

    // The last funding of 1, made 2 with a balance to match, its chain recomputed: a forger who
    // edits the log after the read models were projected from it. The books still balance.
    const forged = copyOfDataDir(t.dataDir, dirs);
    forgeLastFunding(forged, first);
    const run = await verify(forged);
    expect(run.output).toMatch(
      new RegExp(`\\| ${organization}/sandbox +\\| USD +\\| funding:USD +\\| 10000000000000006 +\\|`),
    );
    const differences = run.output.split('\n').filter((l) => l.startsWith('DIFFERENCE'));
    expect(differences).toEqual(
      expect.arrayContaining([
        `DIFFERENCE read_model: ledger acct:${organization}:sandbox:funding:USD: differs from the replay`,
        `DIFFERENCE read_model: ledger cur:${organization}:sandbox:USD: differs from the replay`,
        `DIFFERENCE read_model: ledger sum:sandbox:USD: differs from the replay`,
      ]),
    );
    expect(run.status).toBe(1);
  });
});

function copyOfDataDir(dataDir: string, dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-exact-'));
  cpSync(dataDir, dir, { recursive: true });
  dirs.push(dir);
  return dir;
}

/** `npm run replay -- --verify` in-process on a DATA_DIR: the exit status and what it printed. */
async function verify(dataDir: string) {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    EVENTSTORE_URL: '',
    MONGO_URL: '',
    KAFKA_BROKERS: '',
  });
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  const lines: string[] = [];
  try {
    const status = await runReplay(
      { events, readModels, projections: READ_MODELS, out: (l) => lines.push(l) },
      { verify: true, rebuild: false },
    );
    return { status, output: lines.join('\n') };
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}

type Row = { position: number; type: string; data: string; metadata: string };

function forgeLastFunding(dataDir: string, account: string): void {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    const rows = db
      .prepare<[string], Row>('SELECT position, type, data, metadata FROM events WHERE stream_id = ? ORDER BY revision')
      .all(`account-${account}`);
    const last = rows[rows.length - 1];
    const data = JSON.parse(last.data);
    expect([last.type, data.amount]).toEqual(['AccountFunded', 1]);
    data.amount = 2;
    data.balance_after = { available: data.balance_after.available + 1, current: data.balance_after.current + 1 };
    const metadata = JSON.parse(last.metadata);
    const previous = rows.length > 1 ? JSON.parse(rows[rows.length - 2].metadata).hash : GENESIS_HASH;
    metadata.hash = eventHash(previous, { type: last.type, data, metadata } as never);
    db.prepare('UPDATE events SET data = ?, metadata = ? WHERE position = ?').run(
      JSON.stringify(data),
      JSON.stringify(metadata),
      last.position,
    );
  } finally {
    db.close();
  }
}
