'use strict';
// node bench/generate-log.js [--events 1000000] [--dir DATA_DIR]
// Writes a large log quickly, straight through the event-store port (SQLite, hash-chained, the
// embedded default's adapter): account streams of BENCH_STREAM_LENGTH events each (an opening,
// then sandbox fundings with running balances), appended concurrently so group commit fills each
// fsync. The API then starts on that DATA_DIR as on any other: the projector catches up on it and
// commands fold those accounts (through snapshots once they exist).
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { dist, report } = require('./support');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const STREAM_LENGTH = Number(process.env.BENCH_STREAM_LENGTH || 100);
const CONCURRENCY = 64;
const ORG = 'org_bench';
const ENTITY = 'ent_01BENCH000000000000000000';

function accountEvents(ulid, n) {
  const account = `acc_${ulid()}`;
  const meta = () => ({
    event_id: ulid(),
    organization_id: ORG,
    entity_id: ENTITY,
    correlation_id: 'bench',
    causation_id: 'bench',
    schema_version: 1,
    occurred_at: Date.now(),
    actor: 'system:bench',
    mode: 'sandbox',
  });
  const opened = {
    account_id: account,
    entity_id: ENTITY,
    mode: 'sandbox',
    type: 'checking',
    currency: 'USD',
    minor_units: 2,
    display_name: 'Bench',
    service_ban: '00000000',
    opened: Date.now(),
  };
  const events = [{ type: 'AccountOpened', data: opened, metadata: meta() }];
  for (let i = 1; i < n; i++) {
    const balance = { available: i * 100, current: i * 100 };
    events.push({
      type: 'AccountFunded',
      data: {
        account_id: account,
        entity_id: ENTITY,
        transaction_id: `txn_${ulid()}`,
        amount: 100,
        currency: 'USD',
        source: 'sandbox',
        balance_after: balance,
        funded: Date.now(),
      },
      metadata: meta(),
    });
  }
  return { stream: `account-${account}`, events };
}

/** Appends `events` events to the embedded log in `dir`; returns the figures. */
async function generateLog(dir, events) {
  const { createEventStore } = require(dist('libs/platform/src/adapters'));
  const { loadConfig } = require(dist('libs/platform/src/config/platform-config'));
  const { ulid } = require(dist('libs/platform/src/ids/ulid'));
  const store = createEventStore(
    loadConfig({ ...process.env, DATA_DIR: dir, EVENTSTORE_URL: '', MONGO_URL: '', KAFKA_BROKERS: '' }),
  );
  // The store's writer thread does not keep the process alive: this does, until the log is written.
  const keepAlive = setInterval(() => undefined, 60_000);
  const started = process.hrtime.bigint();
  let written = 0;
  const worker = async () => {
    while (written < events) {
      const batch = accountEvents(ulid, Math.min(STREAM_LENGTH, events - written));
      written += batch.events.length;
      await store.append(batch.stream, batch.events, 'no_stream');
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const head = await store.headPosition();
    await store.close();
    return {
      events: written,
      streams: Math.ceil(written / STREAM_LENGTH),
      seconds: seconds.toFixed(1),
      'events/s': Math.round(written / seconds),
      head,
    };
  } finally {
    clearInterval(keepAlive);
  }
}

module.exports = { generateLog };

if (require.main === module) {
  const dir = arg('dir', process.env.DATA_DIR || mkdtempSync(join(tmpdir(), 'bench-log-')));
  generateLog(dir, Number(arg('events', process.env.BENCH_EVENTS || 1_000_000)))
    .then((row) => report('generate-log', [row], { data_dir: dir }))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
