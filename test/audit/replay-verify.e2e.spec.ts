import { transferStream } from '@app/application/transfers/streams';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from '../../apps/replay/src/replay';
import { startTestApp, type TestApp } from '../support/test-app';
import { auditWorkload } from './audit-workload';

jest.setTimeout(60_000);

let t: TestApp;
let workload: Awaited<ReturnType<typeof auditWorkload>>;
const copies: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  workload = await auditWorkload(t);
  await t.app.close(); // a quiet DATA_DIR to copy; the original is removed in afterAll
});
afterAll(() => [t.dataDir, ...copies].forEach((d) => rmSync(d, { recursive: true, force: true })));

function copyOfDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-copy-'));
  cpSync(t.dataDir, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

/** `npm run replay -- --verify` in-process on a DATA_DIR: the exit status and what it printed. */
async function verify(dataDir: string, args: { rebuild?: boolean; organizationId?: string } = {}) {
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
      { verify: true, rebuild: !!args.rebuild, organizationId: args.organizationId },
    );
    return { status, output: lines.join('\n') };
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}

function editEvents(dataDir: string, edit: (db: Database.Database) => void): void {
  const db = new Database(join(dataDir, 'events.db'));
  edit(db);
  db.close();
}

describe('replay --verify', () => {
  it('exits 0 on an unaltered store: chains whole, every collection equal, the ledger balanced', async () => {
    const { status, output } = await verify(copyOfDataDir());
    expect(output).toContain('OK: chains whole');
    expect(output).toMatch(/\| accounts +\| 2 +\| 2 +\|/);
    expect(output).not.toContain('DIFFERENT');
    expect(status).toBe(0);
  });

  it('exits 1 naming the stream and revision of an event whose data was altered', async () => {
    const dir = copyOfDataDir();
    editEvents(dir, (db) =>
      db
        .prepare(`UPDATE events SET data = json_set(data, '$.amount', 1) WHERE stream_id = ? AND revision = 1`)
        .run(`account-${workload.account}`),
    );
    const { status, output } = await verify(dir);
    expect(status).toBe(1);
    expect(output).toContain(
      `DIFFERENCE chain: stream account-${workload.account} revision 1: hash does not match the event`,
    );
  });

  it('exits 1 naming the stream and revision of a removed event', async () => {
    const dir = copyOfDataDir();
    editEvents(dir, (db) =>
      db.prepare('DELETE FROM events WHERE stream_id = ? AND revision = 1').run(transferStream(workload.paid)),
    );
    const { status, output } = await verify(dir);
    expect(status).toBe(1);
    expect(output).toContain(`DIFFERENCE chain: stream ${transferStream(workload.paid)} revision 1: event missing`);
  });

  it('names a live document that differs from the replay, and --rebuild replaces it', async () => {
    const dir = copyOfDataDir();
    const db = new Database(join(dir, 'read-models.db'));
    db.prepare(
      `UPDATE documents SET body = json_set(body, '$.display_name', 'tampered') WHERE collection = 'accounts' AND id = ?`,
    ).run(workload.account);
    db.close();
    const before = await verify(dir);
    expect(before.status).toBe(1);
    expect(before.output).toContain(`DIFFERENCE read_model: accounts ${workload.account}: differs from the replay`);
    expect((await verify(dir, { rebuild: true })).status).toBe(0);
    expect((await verify(dir)).status).toBe(0);
  });

  it('--organization limits the read models and the ledger to one organization', async () => {
    const { status, output } = await verify(copyOfDataDir(), { organizationId: 'org_unknown' });
    expect(status).toBe(0);
    expect(output).toMatch(/\| accounts +\| 0 +\| 0 +\|/);
  });
});
