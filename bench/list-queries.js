'use strict';
// node bench/list-queries.js: list-query latency on BENCH_DOCUMENTS (1 million) read-model
// documents in the embedded read store (SQLite, the declared indexes created as at startup).
// The documents are transfers of one organization (the worst case: every list of that
// organization walks the same million), spread over 10 entities, 1,000 accounts and 4 statuses;
// each query shape the transfers list can send runs BENCH_QUERY_RUNS times through the real
// query handler, first page and a page from a cursor in the middle. Target: p99 ≤ 20 ms.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { dist, percentile, report } = require('./support');

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS || 1_000_000);
const RUNS = Number(process.env.BENCH_QUERY_RUNS || 300);
const TARGET_P99_MS = 20;
const ORG = 'org_bench';
const STATUSES = ['processing', 'successful', 'failed', 'reversed'];
const entityOf = (i) => `ent_${String(i % 10).padStart(26, '0')}`;
const accountOf = (i) => `acc_${String(i % 1000).padStart(26, '0')}`;

async function fill(store, ulid) {
  const ids = [];
  const BATCH = 5000;
  for (let start = 0; start < DOCUMENTS; start += BATCH) {
    const writes = [];
    for (let i = start; i < Math.min(DOCUMENTS, start + BATCH); i++) {
      const id = `trf_${ulid()}`;
      ids.push(id);
      const doc = {
        id,
        organization_id: ORG,
        mode: 'sandbox',
        entity_id: entityOf(i),
        account_id: accountOf(i),
        status: STATUSES[i % 4],
        amount: 100,
        currency: 'USD',
        created: Date.now(),
      };
      writes.push({ collection: 'transfers', id, position: i + 1, evolve: () => doc });
    }
    await store.apply(writes, {});
  }
  return ids;
}

async function time(run) {
  // Warm-up: the statement is prepared and the index pages are in the cache, as on a live server.
  for (let i = 0; i < 20; i++) await run();
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

async function main() {
  const { SqliteReadStore } = require(dist('libs/platform/src/read-store/sqlite-read-store'));
  const { indexesOf } = require(dist('libs/platform/src/read-store/read-index'));
  const { READ_MODELS } = require(dist('libs/read-models/src/read-models'));
  const { ListTransfersHandler } = require(dist('libs/read-models/src/transfers/list-transfers.query-handler'));
  const { ListTransfersQuery } = require(dist('libs/read-models/src/transfers/list-transfers.query'));
  const { ulid } = require(dist('libs/platform/src/ids/ulid'));
  const dir = mkdtempSync(join(tmpdir(), 'bench-lists-'));
  const store = new SqliteReadStore(join(dir, 'read-models.db'));
  await store.ensureIndexes(indexesOf(READ_MODELS));
  const filled = process.hrtime.bigint();
  const ids = await fill(store, ulid);
  const fillSeconds = (Number(process.hrtime.bigint() - filled) / 1e9).toFixed(1);
  const handler = new ListTransfersHandler(store);
  const middle = ids[Math.floor(ids.length / 2)];
  const base = { organization_id: ORG, mode: 'sandbox', entity_id: entityOf(3) };
  const shapes = {
    'transfers of an entity': base,
    '… of an account': { ...base, account_id: accountOf(3) },
    '… with a status': { ...base, status: 'failed' },
    '… account and status': { ...base, account_id: accountOf(3), status: STATUSES[3] },
    '… a status no document has': { ...base, status: 'none' },
  };
  const rows = [];
  for (const [shape, filter] of Object.entries(shapes)) {
    for (const [page, before] of [
      ['first', undefined],
      ['cursor', middle],
    ]) {
      const samples = await time(() => handler.execute(new ListTransfersQuery(filter, { limit: 20, before })));
      const p99 = percentile(samples, 99);
      rows.push({
        query: shape,
        page,
        p50_ms: percentile(samples, 50).toFixed(2),
        p99_ms: p99.toFixed(2),
        target_p99_ms: TARGET_P99_MS,
        ok: p99 <= TARGET_P99_MS ? 'yes' : 'NO',
      });
    }
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`${DOCUMENTS} transfer documents (filled in ${fillSeconds}s), ${RUNS} runs per query, limit 20\n`);
  report('list-queries', rows, { documents: DOCUMENTS, runs: RUNS, fill_seconds: Number(fillSeconds) });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
