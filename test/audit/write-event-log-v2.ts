// Writes test/fixtures/event-log-v2-before-ledger.jsonl: the log of ledger-workload.ts as the code
// before the ledger wrote it. Run once, in a clone at that commit (never to make a test pass):
//
//   git clone -q /work/main /tmp/before-ledger && git -C /tmp/before-ledger checkout 5f5e421
//   ln -s "$PWD/node_modules" /tmp/before-ledger/node_modules
//   cp test/audit/{ledger-workload.ts,write-event-log-v2.ts,ts-register.js} /tmp/before-ledger/test/audit/
//   (cd /tmp/before-ledger && node -r ./test/audit/ts-register.js test/audit/write-event-log-v2.ts "$PWD/test/fixtures/event-log-v2-before-ledger.jsonl")
//
// Each line is one stored event as the SQLite store holds it (the shape of event-log-v1.jsonl):
// {id, streamId, type, data, metadata (hash included), revision, position}.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTestApp } from '../support/test-app';
import { ledgerWorkload } from './ledger-workload';

async function main(out: string): Promise<void> {
  // The stores' timers and writer thread do not keep a process alive (jest does, in a test): this does.
  const keepAlive = setInterval(() => undefined, 60_000);
  const t = await startTestApp();
  const workload = await ledgerWorkload(t);
  await t.app.close();
  const db = new Database(join(t.dataDir, 'events.db'), { readonly: true });
  const rows = db.prepare('SELECT * FROM events ORDER BY position').all() as Array<Record<string, string | number>>;
  db.close();
  const events = rows.map((r) => ({
    id: r.event_id,
    streamId: r.stream_id,
    type: r.type,
    data: JSON.parse(String(r.data)),
    metadata: JSON.parse(String(r.metadata)),
    revision: r.revision,
    position: r.position,
  }));
  writeFileSync(out, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  await t.close();
  clearInterval(keepAlive);
  console.log(JSON.stringify({ events: events.length, workload }, null, 1));
}

main(process.argv[2] ?? join(__dirname, '..', 'fixtures', 'event-log-v2-before-ledger.jsonl')).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
