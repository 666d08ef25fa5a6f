'use strict';
// node bench/replay.js --dir DATA_DIR   (a log from `node bench/generate-log.js --events 1000000`)
// The replay's pass over a large log, as `npm run replay -- --verify` runs it: every event read
// from the event store port, its hash chain recomputed, every projection of read-models.ts rebuilt
// into the in-memory scratch store, every account folded; then a digest per collection and the
// ledger check. Prints events per second and the process's peak memory (max RSS).
const { join } = require('node:path');

const dist = (p) => join(process.env.BENCH_DIST || join(__dirname, '..', 'dist'), p);
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

async function main() {
  const dir = arg('dir') || process.env.DATA_DIR;
  if (!dir) throw new Error('usage: node bench/replay.js --dir DATA_DIR');
  const { createEventStore } = require(dist('libs/platform/src/adapters'));
  const { loadConfig } = require(dist('libs/platform/src/config/platform-config'));
  const { READ_MODELS } = require(dist('libs/read-models/src/read-models'));
  const { readLog } = require(dist('apps/replay/src/log-pass'));
  const { digestOf } = require(dist('apps/replay/src/collection-digest'));
  const { checkLedger } = require(dist('apps/replay/src/ledger-check'));
  const store = createEventStore(loadConfig({ ...process.env, DATA_DIR: dir, EVENTSTORE_URL: '', MONGO_URL: '', KAFKA_BROKERS: '' }));
  const started = process.hrtime.bigint();
  let shown = 0;
  const pass = await readLog(store, READ_MODELS, {
    onProgress: (position, head) => {
      if (position - shown >= head / 10 || position === head) console.error(`position ${(shown = position)} of ${head}`);
    },
  });
  const passSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const documents = [...pass.scratch.values()].reduce((n, docs) => n + digestOf(docs.values()).documents, 0);
  const ledger = checkLedger(pass.accounts, pass.scratch.get('account_transactions')?.values() ?? []);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  const row = {
    events: pass.events,
    streams: pass.streams,
    'chain breaks': pass.breaks.length,
    documents,
    'ledger differences': ledger.differences.length,
    'pass s': passSeconds.toFixed(1),
    'total s': seconds.toFixed(1),
    'events/s (pass)': Math.round(pass.events / passSeconds),
    'events/s (total)': Math.round(pass.events / seconds),
    'peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
  };
  for (const [k, v] of Object.entries(row)) console.log(`${k.padEnd(20)} ${v}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
