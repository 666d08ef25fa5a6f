import { transferStream } from '@app/application/transfers/streams';
import { spawn, spawnSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModuleRef } from '@nestjs/core';
import Database from 'better-sqlite3';
import { AuditCheckpointWriter } from '@app/platform/audit-checkpoints/audit-checkpoint-writer';
import { verifyCheckpoint, type SignedCheckpoint } from '@app/platform/audit-checkpoints/checkpoint';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { GENESIS_HASH, eventHash } from '@app/platform/event-store/hash-chain/event-hash';
import { approvedEntity, tokenFor } from '../support/fixtures';
import { waitFor } from '../support/wait-for';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { fund } from '../transfers/helpers';
import { auditWorkload } from './audit-workload';

jest.setTimeout(240_000);

/**
 * Issue 23, part 4: signed checkpoints over the whole log. The test app signs them (its writer,
 * asked for one now and then, and once more on shutdown) into DATA_DIR/checkpoints; the operator
 * reads them with their public key; an API key gets an inclusion proof of its own event that
 * examples/verify-proof.mjs checks offline. Then each of the five alterations the chains alone
 * miss, made on a copy of the DATA_DIR, makes `npm run replay -- --verify` exit 1 naming it.
 */
const ROOT = join(__dirname, '..', '..');
const ADMIN_TOKEN = 'audit-checkpoints-admin-token-0123456789abcdef';
const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };
// Checkpoints here are asked for (checkpointNow) or written at shutdown, never by the clock.
const ENV = { PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN, AUDIT_CHECKPOINT_INTERVAL_MS: '600000' };

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

let t: TestApp;
let dataDir: string;
let workload: Awaited<ReturnType<typeof auditWorkload>>;
let first: SignedCheckpoint;
let second: SignedCheckpoint;
let checkpointsPage: { key: { public_key: string; key_id: string }; data: SignedCheckpoint[] };
let consistency: { first: SignedCheckpoint; second: SignedCheckpoint; proof: string[] };
/** The TransferCreated event of the paid transfer, as GET /events shows it, and its proof. */
let event: { id: string; position: number; revision: number; metadata: { hash: string } };
let proof: {
  leaf_index: number;
  leaf: { position: number; stream_id: string; revision: number; hash: string };
  audit_path: string[];
  checkpoint: SignedCheckpoint;
  public_key: string;
};

const writerOf = (app: TestApp) => app.app.get(AuditCheckpointWriter);
/** Whether the app runs a writer at all (through ModuleRef: the app's own get exits the process on a missing provider). */
const hasWriter = (app: TestApp) => {
  try {
    return !!app.app.get(ModuleRef).get(AuditCheckpointWriter, { strict: false });
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dataDir = tempDir('checkpoints-data-');
  t = await startTestApp(ENV, dataDir);
  workload = await auditWorkload(t);
  first = (await writerOf(t).checkpointNow())!;
  // A restart resumes from the checkpoint's frontier; the next checkpoint extends the first.
  t = await t.restart();
  await fund(t, workload.account, 700, 'USD');
  second = (await writerOf(t).checkpointNow())!;
  checkpointsPage = (await t.http.get('/admin/audit/checkpoints').set(ADMIN).expect(200)).body;
  consistency = (
    await t.http
      .get(`/admin/audit/checkpoints/consistency?first=${first.tree_size}&second=${second.tree_size}`)
      .set(ADMIN)
      .expect(200)
  ).body;
  event = (
    await t.http
      .get(`/events?resource_type=transfer&resource_id=${workload.paid}&limit=1`)
      .set(bearer(KEYS.sandbox))
      .expect(200)
  ).body.data[0];
  proof = (await t.http.get(`/events/${event.id}/proof`).set(bearer(KEYS.sandbox)).expect(200)).body;
});
afterAll(() => t?.close());

/** examples/verify-proof.mjs on files written from the JSON given: exit status and output. */
function verifyOffline(args: Array<string | { json: unknown } | { pem: string }>) {
  const dir = tempDir('verify-proof-');
  const argv = args.map((a, i) => {
    if (typeof a === 'string') return a;
    const file = join(dir, `${i}.${'pem' in a ? 'pem' : 'json'}`);
    writeFileSync(file, 'pem' in a ? a.pem : JSON.stringify(a.json));
    return file;
  });
  const run = spawnSync(process.execPath, [join(ROOT, 'examples', 'verify-proof.mjs'), ...argv], {
    encoding: 'utf8',
    env: {},
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('checkpoints: served, signed, consistent', () => {
  it('the operator reads them newest first with the public key, and each verifies with it', async () => {
    expect(second.tree_size).toBeGreaterThan(first.tree_size);
    expect(checkpointsPage.data.map((c) => c.tree_size)).toEqual([second.tree_size, first.tree_size]);
    expect(checkpointsPage.data[0]).toEqual({
      tree_size: second.tree_size,
      last_position: second.last_position,
      root_hash: second.root_hash,
      timestamp: second.timestamp,
      key_id: second.key_id,
      signature: second.signature,
    });
    const key = createPublicKey(checkpointsPage.key.public_key);
    expect(key.asymmetricKeyType).toBe('ed25519');
    for (const c of checkpointsPage.data) expect(verifyCheckpoint(c, key)).toBe(true);
    expect(verifyCheckpoint({ ...checkpointsPage.data[0], tree_size: 1 }, key)).toBe(false);
    // The checkpoint covers the whole log when it was signed: its last position is the head then.
    expect(second.last_position).toBe(proof.checkpoint.last_position);
    const offline = verifyOffline([
      '--checkpoints',
      { json: checkpointsPage },
      '--public-key',
      { pem: checkpointsPage.key.public_key },
    ]);
    expect(offline).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('OK: 2 checkpoint(s) signed by this key'),
    });
    // Append-only files outside the event store, one per checkpoint; the key generated beside the master key.
    expect(
      readdirSync(join(dataDir, 'checkpoints'))
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual([first.tree_size, second.tree_size].map((n) => `checkpoint-${String(n).padStart(20, '0')}.json`));
    expect(readFileSync(join(dataDir, 'checkpoints', 'public-key.pem'), 'utf8')).toBe(checkpointsPage.key.public_key);
  });

  it('the operator token guards them, and a cursor pages them', async () => {
    await t.http.get('/admin/audit/checkpoints').expect(401);
    await t.http.get('/admin/audit/checkpoints').set(bearer(KEYS.sandbox)).expect(401);
    const page = (await t.http.get('/admin/audit/checkpoints?limit=1').set(ADMIN).expect(200)).body;
    expect(page.data.map((c: SignedCheckpoint) => c.tree_size)).toEqual([second.tree_size]);
    expect(page.meta.pagination).toEqual({ has_more: true, next_cursor: String(second.tree_size) });
    const next = (
      await t.http
        .get(`/admin/audit/checkpoints?limit=1&cursor=${page.meta.pagination.next_cursor}`)
        .set(ADMIN)
        .expect(200)
    ).body;
    expect(next.data.map((c: SignedCheckpoint) => c.tree_size)).toEqual([first.tree_size]);
    await t.http.get('/admin/audit/checkpoints?limit=0').set(ADMIN).expect(400);
  });

  it('a consistency proof shows the later checkpoint extends the earlier one, across a restart, offline', async () => {
    const key = { pem: checkpointsPage.key.public_key };
    expect(verifyOffline(['--consistency', { json: consistency }, '--public-key', key])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining(`extends the one of tree_size ${first.tree_size}`),
    });
    const forged = {
      ...consistency,
      proof: consistency.proof.map((h, i) => (i === 0 ? h.replace(/^./, (c) => (c === '0' ? '1' : '0')) : h)),
    };
    expect(verifyOffline(['--consistency', { json: forged }, '--public-key', key])).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('does not extend'),
    });
    await t.http
      .get(`/admin/audit/checkpoints/consistency?first=${second.tree_size}&second=${first.tree_size}`)
      .set(ADMIN)
      .expect(400);
    await t.http.get(`/admin/audit/checkpoints/consistency?first=1&second=${second.tree_size}`).set(ADMIN).expect(404);
  });
});

describe('GET /events/{id}/proof', () => {
  it("proves an event of the key's organization and mode in the latest checkpoint; the proof verifies offline", () => {
    expect(proof.checkpoint).toEqual(checkpointsPage.data[0]);
    expect(proof.leaf).toEqual({
      position: event.position,
      stream_id: transferStream(workload.paid),
      revision: event.revision,
      hash: event.metadata.hash,
    });
    expect(proof.leaf_index).toBeLessThan(proof.checkpoint.tree_size);
    const run = verifyOffline([
      { json: proof },
      '--event',
      { json: event },
      '--public-key',
      { pem: checkpointsPage.key.public_key },
    ]);
    expect(run).toMatchObject({
      status: 0,
      stdout: expect.stringContaining(
        `OK: event ${event.id} (position ${event.position}, stream ${transferStream(workload.paid)} revision ${event.revision}) is leaf ${proof.leaf_index}`,
      ),
    });
    // Without a pinned key it still checks, and says whose key it used.
    expect(verifyOffline([{ json: proof }])).toMatchObject({
      status: 0,
      stderr: expect.stringContaining('using the public key inside the file'),
    });
  });

  it('fails offline for an altered event, an altered leaf, another key or a forged checkpoint', () => {
    const key = { pem: checkpointsPage.key.public_key };
    const altered = {
      ...event,
      metadata: {
        ...event.metadata,
        hash: eventHash(GENESIS_HASH, { type: 'TransferCreated', data: { amount: 1 }, metadata: {} as never }),
      },
    };
    expect(verifyOffline([{ json: proof }, '--event', { json: altered }, '--public-key', key])).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("the event is not the proof's leaf: metadata.hash"),
    });
    const forgedLeaf = { ...proof, leaf: { ...proof.leaf, hash: altered.metadata.hash } };
    expect(verifyOffline([{ json: forgedLeaf }, '--public-key', key])).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('does not lead from leaf'),
    });
    const moved = { ...proof, leaf: { ...proof.leaf, position: proof.leaf.position + 1 } };
    expect(verifyOffline([{ json: moved }, '--public-key', key]).status).toBe(1);
    const otherKey = require('node:crypto')
      .generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    expect(verifyOffline([{ json: proof }, '--public-key', { pem: otherKey }])).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('not this key'),
    });
    const forgedRoot = { ...proof, checkpoint: { ...proof.checkpoint, root_hash: altered.metadata.hash } };
    expect(verifyOffline([{ json: forgedRoot }, '--public-key', key])).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('signature does not verify'),
    });
    expect(verifyOffline(['--bogus']).status).toBe(2);
  });

  it("is the key's own: another organization or mode 404, an entity token 403, an unknown or malformed id 404, no key 401", async () => {
    await t.http.get(`/events/${event.id}/proof`).set(bearer(KEYS.other)).expect(404);
    await t.http.get(`/events/${event.id}/proof`).set(bearer(KEYS.live)).expect(404);
    const token = await tokenFor(t, await approvedEntity(t));
    await t.http.get(`/events/${event.id}/proof`).set(bearer(token)).expect(403);
    await t.http.get('/events/evt_01ARZ3NDEKTSV4RRFFQ69G5FAV/proof').set(bearer(KEYS.sandbox)).expect(404);
    await t.http.get('/events/nonsense/proof').set(bearer(KEYS.sandbox)).expect(404);
    await t.http.get(`/events/${event.id}/proof`).expect(401);
  });

  it('an event newer than the latest checkpoint answers 409 event_not_checkpointed, then a proof once one is signed', async () => {
    await fund(t, workload.account, 300, 'USD');
    await writerOf(t).checkpointNow(); // indexes and signs; the next event is not signed yet
    await fund(t, workload.account, 200, 'USD');
    const latest = (
      await t.http
        .get(`/events?resource_type=account&resource_id=${workload.account}&limit=100`)
        .set(bearer(KEYS.sandbox))
        .expect(200)
    ).body.data.pop();
    // The writer indexes it at its next tick (within a second) but signs only when due.
    const res = await waitFor(
      () => t.http.get(`/events/${latest.id}/proof`).set(bearer(KEYS.sandbox)),
      (r) => r.status !== 404,
      'the writer to index the event',
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'event_not_checkpointed' });
    await writerOf(t).checkpointNow();
    const signed = (await t.http.get(`/events/${latest.id}/proof`).set(bearer(KEYS.sandbox)).expect(200)).body;
    expect(verifyOffline([{ json: signed }, '--event', { json: latest }]).status).toBe(0);
  });
});

describe('the writer signs by itself', () => {
  it('every AUDIT_CHECKPOINT_INTERVAL_MS once the log grew, and as soon as AUDIT_CHECKPOINT_EVERY_EVENTS are unsigned', async () => {
    const timed = await startTestApp({ PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN, AUDIT_CHECKPOINT_INTERVAL_MS: '600000' });
    const counted = await startTestApp({
      PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN,
      AUDIT_CHECKPOINT_INTERVAL_MS: '600000',
      AUDIT_CHECKPOINT_EVERY_EVENTS: '3',
    });
    try {
      // Each eventually leaves fewer unsigned events than its trigger: none for the interval; fewer
      // than three for the count (its ten minutes never pass, so a checkpoint at all is the count's).
      for (const [app, unsignedAtMost] of [
        [timed, 0],
        [counted, 2],
      ] as const) {
        await approvedEntity(app);
        await app.settle();
        // The timed app's interval passes on its clock, not in real time (the writer looks at least every second).
        if (app === timed) app.clock.advance(600_000);
        const head = await app.app.get<EventStore>(EVENT_STORE).headPosition();
        const latest = await waitFor(
          async () =>
            (await app.http.get('/admin/audit/checkpoints?limit=1').set(ADMIN).expect(200)).body.data[0] as
              SignedCheckpoint | undefined,
          (c) => !!c && c.last_position >= head - unsignedAtMost,
          `a checkpoint signed by itself up to position ${head - unsignedAtMost} or later`,
        );
        expect(latest?.last_position).toBeGreaterThanOrEqual(head - unsignedAtMost);
      }
    } finally {
      await Promise.all([timed.close(), counted.close()]);
    }
  });
});

describe('the writer is the worker’s audit role, not the API’s', () => {
  it('the API with no audit role signs nothing; with it, the same log is signed and the API serves it', async () => {
    const dir = tempDir('checkpoints-role-');
    const env = { PAYMENTS_ADMIN_TOKEN: ADMIN_TOKEN, AUDIT_CHECKPOINT_INTERVAL_MS: '300' };
    const latest = async (app: TestApp) =>
      (await app.http.get('/admin/audit/checkpoints?limit=1').set(ADMIN).expect(200)).body.data[0] as
        SignedCheckpoint | undefined;
    let app = await startTestApp(env, dir, { workerRoles: ['projector'] });
    try {
      await approvedEntity(app);
      // No writer in the app at all, rather than none seen signing within some wait.
      expect(hasWriter(app)).toBe(false);
      expect(await latest(app)).toBeUndefined();
      await app.close();
      app = await startTestApp(env, dir, { workerRoles: ['projector', 'audit'] });
      expect(hasWriter(app)).toBe(true);
      const signed = await waitFor(
        () => latest(app),
        (c) => !!c,
        'the audit role to sign the log it found',
      );
      expect(signed?.tree_size).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

/** `npm run replay -- --verify` as package.json runs it (its TypeScript source through ts-register.js), on a DATA_DIR. */
function replay(dir: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.replay;
  const entry = /^node dist\/(\S+)\.js$/.exec(script)![1];
  const child = spawn(
    process.execPath,
    ['-r', join(__dirname, 'ts-register.js'), join(ROOT, `${entry}.ts`), '--verify', '--no-progress'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dir,
        EVENTSTORE_URL: '',
        MONGO_URL: '',
        KAFKA_BROKERS: '',
        PAYMENTS_MASTER_KEY: '',
        CHECKPOINT_DIR: '',
        AUDIT_SIGNING_KEY: '',
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

interface Row {
  position: number;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

/** A copy of the DATA_DIR (events.db, read models, checkpoints, key) once the app has closed, its log altered by `edit`. */
function alteredCopy(edit: (db: Database.Database) => void): string {
  const dir = tempDir('checkpoints-copy-');
  cpSync(dataDir, dir, { recursive: true });
  const db = new Database(join(dir, 'events.db'));
  db.transaction(() => edit(db))();
  db.close();
  return dir;
}

const rowsOf = (db: Database.Database, stream: string) =>
  db.prepare('SELECT * FROM events WHERE stream_id = ? ORDER BY revision').all(stream) as Row[];

/** Chains `stream` again from revision 0, as a forger with the log file would after editing it. */
function rechain(db: Database.Database, stream: string): void {
  let previous = GENESIS_HASH;
  for (const row of rowsOf(db, stream)) {
    const metadata = JSON.parse(row.metadata);
    metadata.hash = eventHash(previous, { type: row.type, data: JSON.parse(row.data), metadata });
    previous = metadata.hash;
    db.prepare('UPDATE events SET metadata = ? WHERE position = ?').run(JSON.stringify(metadata), row.position);
  }
}

const differences = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('DIFFERENCE'));

describe('replay --verify against the latest checkpoint', () => {
  beforeAll(async () => {
    await t.close(); // final checkpoint on shutdown: a quiet DATA_DIR to copy
    t = undefined as never;
  });

  it('an untouched copy passes: the log gives the signed tree size and root', async () => {
    const run = await replay(alteredCopy(() => undefined));
    expect(run.stdout).toMatch(
      /checkpoint: tree_size \d+ up to position \d+, signed .* by key [0-9a-f]{16}…: the log gives its tree size and root/,
    );
    expect(differences(run.stdout)).toEqual([]);
    expect(run.status).toBe(0);
  });

  it('truncation: the last events removed (no chain can tell) → exit 1 naming the truncated tail', async () => {
    let end = 0;
    const dir = alteredCopy((db) => {
      const max = (db.prepare('SELECT MAX(position) AS p FROM events').get() as { p: number }).p;
      db.prepare('DELETE FROM events WHERE position > ?').run(max - 3);
      end = max - 3;
    });
    const run = await replay(dir);
    expect(run.status).toBe(1);
    expect(differences(run.stdout)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^DIFFERENCE checkpoint: log after position ${end}: truncated: the checkpoint of tree_size \\d+ signed events up to position ${end + 3}; 3 signed event\\(s\\) from position ${end + 1} are not in the log$`,
        ),
      ),
    );
    expect(run.stdout).not.toContain('DIFFERENCE chain');
  });

  it('a deleted stream: every event of one transfer removed → exit 1 naming the stream', async () => {
    let count = 0;
    const dir = alteredCopy((db) => {
      count = db.prepare('DELETE FROM events WHERE stream_id = ?').run(transferStream(workload.failed)).changes;
    });
    expect(count).toBeGreaterThan(1);
    const run = await replay(dir);
    expect(run.status).toBe(1);
    expect(differences(run.stdout)).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^DIFFERENCE checkpoint: stream ${transferStream(workload.failed)}: deleted: its ${count} signed event\\(s\\) \\(revisions 0…${count - 1}, positions \\d+…\\d+\\) are not in the log$`,
        ),
      ),
    );
    expect(run.stdout).not.toContain('DIFFERENCE chain');
  });

  it("a rewritten suffix: the last events' actor changed and their chains recomputed → exit 1 naming each rewritten event", async () => {
    const rewritten: Row[] = [];
    const dir = alteredCopy((db) => {
      rewritten.push(...(db.prepare('SELECT * FROM events ORDER BY position DESC LIMIT 4').all() as Row[]).reverse());
      for (const row of rewritten)
        db.prepare("UPDATE events SET metadata = json_set(metadata, '$.actor', 'operator') WHERE position = ?").run(
          row.position,
        );
      for (const stream of new Set(rewritten.map((r) => r.stream_id))) rechain(db, stream);
    });
    const run = await replay(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('DIFFERENCE chain');
    for (const row of rewritten) {
      expect(differences(run.stdout)).toContainEqual(
        expect.stringContaining(
          `DIFFERENCE checkpoint: position ${row.position}: rewritten: stream ${row.stream_id} revision ${row.revision} differs from the event signed at this position`,
        ),
      );
    }
    expect(run.stdout).toMatch(
      /DIFFERENCE checkpoint: checkpoint tree_size \d+: the log's \d+ event\(s\) up to position \d+ hash to [0-9a-f]{16}…, not the signed root/,
    );
  });

  it("cross-stream reordering: two neighbouring events of different streams swap positions (each stream's chain intact) → exit 1 naming both positions", async () => {
    let swapped: [Row, Row] | null = null;
    const dir = alteredCopy((db) => {
      const rows = db.prepare('SELECT * FROM events ORDER BY position').all() as Row[];
      const i = rows.findIndex(
        (r, k) =>
          k > 0 &&
          rows[k + 1] &&
          r.stream_id !== rows[k + 1].stream_id &&
          r.position + 1 === rows[k + 1].position &&
          r.stream_id.startsWith('transfer-'),
      );
      const [a, b] = [rows[i], rows[i + 1]];
      swapped = [a, b];
      db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(a.position);
      db.prepare('UPDATE events SET position = ? WHERE position = ?').run(a.position, b.position);
      db.prepare('UPDATE events SET position = ? WHERE position = -1').run(b.position);
    });
    const [a, b] = swapped!;
    const run = await replay(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('DIFFERENCE chain');
    expect(differences(run.stdout)).toEqual(
      expect.arrayContaining([
        `DIFFERENCE checkpoint: position ${a.position}: reordered: signed as stream ${a.stream_id} revision ${a.revision}, the log has stream ${b.stream_id} revision ${b.revision} there`,
        `DIFFERENCE checkpoint: position ${b.position}: reordered: signed as stream ${b.stream_id} revision ${b.revision}, the log has stream ${a.stream_id} revision ${a.revision} there`,
      ]),
    );
  });

  it('a hashless event after the chain\'s start: a stream\'s last event altered and its hash removed (it passed as "legacy") → exit 1 naming it', async () => {
    let target: Row | null = null;
    const dir = alteredCopy((db) => {
      const rows = rowsOf(db, `counterparty-${workload.counterparty}`);
      target = rows[rows.length - 1];
      expect(target.revision).toBeGreaterThan(0);
      const data = { ...JSON.parse(target.data), forged: true };
      db.prepare("UPDATE events SET data = ?, metadata = json_remove(metadata, '$.hash') WHERE position = ?").run(
        JSON.stringify(data),
        target.position,
      );
    });
    const row = target as unknown as Row;
    const run = await replay(dir);
    expect(run.status).toBe(1);
    expect(differences(run.stdout)).toEqual(
      expect.arrayContaining([
        `DIFFERENCE chain: stream ${row.stream_id} revision ${row.revision}: no hash, after the chain's start (revision 0 has one): an event older than chains cannot follow a hashed one`,
        expect.stringContaining(
          `DIFFERENCE checkpoint: position ${row.position}: rewritten: stream ${row.stream_id} revision ${row.revision} differs`,
        ),
      ]),
    );
  });

  it('the writer rebuilds a lost side index from the log, and refuses to sign over a log that no longer gives its checkpoint', async () => {
    const lost = alteredCopy(() => undefined);
    rmSync(join(lost, 'checkpoints', 'tree.db'));
    const rebuilt = await startTestApp(ENV, lost);
    try {
      expect(await writerOf(rebuilt).checkpointNow()).toMatchObject({ tree_size: expect.any(Number) });
      expect(writerOf(rebuilt).haltedBecause).toBeNull();
      const again = (await rebuilt.http.get(`/events/${event.id}/proof`).set(bearer(KEYS.sandbox)).expect(200)).body;
      expect(verifyOffline([{ json: again }, '--event', { json: event }]).status).toBe(0);
    } finally {
      await rebuilt.close();
    }

    const forged = alteredCopy((db) => {
      db.prepare("UPDATE events SET metadata = json_set(metadata, '$.actor', 'operator') WHERE position = ?").run(
        event.position,
      );
      rechain(db, transferStream(workload.paid));
    });
    rmSync(join(forged, 'checkpoints', 'tree.db'));
    const before = readdirSync(join(forged, 'checkpoints')).filter((f) => f.endsWith('.json'));
    const refused = await startTestApp(ENV, forged);
    try {
      await fund(refused, workload.account, 100, 'USD');
      expect(await writerOf(refused).checkpointNow()).toBeNull();
      expect(writerOf(refused).haltedBecause).toMatch(
        /^the log no longer gives the latest signed checkpoint \(tree_size \d+ up to position \d+; the log has \d+ events there\): not signing over it; run npm run replay -- --verify$/,
      );
    } finally {
      await refused.close();
    }
    expect(readdirSync(join(forged, 'checkpoints')).filter((f) => f.endsWith('.json'))).toEqual(before);
  });

  it('a writer whose key did not sign the latest checkpoint signs nothing, and says so', async () => {
    const dir = alteredCopy(() => undefined);
    const seed = Buffer.alloc(32, 7).toString('base64');
    const other = await startTestApp({ ...ENV, AUDIT_SIGNING_KEY: seed }, dir);
    try {
      await fund(other, workload.account, 100, 'USD');
      expect(await writerOf(other).checkpointNow()).toBeNull();
      expect(writerOf(other).haltedBecause).toMatch(
        /^the latest checkpoint \(tree_size \d+\) is not signed by this key \([0-9a-f]{16}…, from AUDIT_SIGNING_KEY\)/,
      );
      // What it serves is only what its key signed: nothing.
      expect((await other.http.get('/admin/audit/checkpoints').set(ADMIN).expect(200)).body.data).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('the proof of an event rewritten in the log (its chain recomputed) fails offline', async () => {
    const dir = alteredCopy((db) => {
      const [row] = db.prepare('SELECT * FROM events WHERE position = ?').all(event.position) as Row[];
      db.prepare(
        "UPDATE events SET data = json_set(data, '$.amount', json_extract(data, '$.amount') + 1) WHERE position = ?",
      ).run(row.position);
      rechain(db, row.stream_id);
    });
    const app = await startTestApp(ENV, dir);
    try {
      const shown = (
        await app.http.get(`/transfers/${workload.paid}/history`).set(bearer(KEYS.sandbox)).expect(200)
      ).body.data.find((e: { id: string }) => e.id === event.id);
      expect(shown.metadata.hash).not.toBe(event.metadata.hash);
      const altered = (await app.http.get(`/events/${event.id}/proof`).set(bearer(KEYS.sandbox)).expect(200)).body;
      const run = verifyOffline([
        { json: altered },
        '--event',
        { json: shown },
        '--public-key',
        { pem: checkpointsPage.key.public_key },
      ]);
      expect(run).toMatchObject({ status: 1, stdout: expect.stringContaining('does not lead from leaf') });
    } finally {
      await app.close();
    }
  });
});
