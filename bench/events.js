'use strict';
// Events per transfer in the audited log, without and with one all-events webhook on the
// transfers' entity (issue 20: delivery bookkeeping used to add 25 events to each transfer's 6).
// A fresh `npm start` (server.js api: the API and its worker) on its own DATA_DIR, the sandbox
// network on: N transfers are sent one after another and awaited until `successful` (and, with the
// webhook, until the receiver has every delivery), then the log's head is read from /health.
// SQLite positions are consecutive, so the head's move is the number of events written. The plain
// phase's positions are then read from the log file (read-only) for the streams they touched and
// their event types (issue 19 item 4: fewer events and streams per transfer).
// Alone: `node events.js` after `npm --prefix .. run build` (BENCH_EVENTS_TRANSFERS, default 20).
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const Database = require('better-sqlite3');
const { health, start, stop, must } = require('./client');
const { setUp } = require('./world');
const { RECEIVER_ENV, startReceiver } = require('./webhooks');

const TRANSFERS = Number(process.env.BENCH_EVENTS_TRANSFERS || 20);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(probe, what, timeoutMs = 120_000) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(100)) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The log's head once the worker has nothing left to do: every reader at the head, and it stays there. */
async function quietHead(base) {
  let last = -1;
  for (;;) {
    const { log } = await health(base);
    if (log.head === last && log.projected === log.head && log.published === log.head) return log.head;
    last = log.head;
    await sleep(1_000);
  }
}

async function transfers(base, world, count, tag, settled) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const body = {
      account_id: world.accounts[0],
      payment_detail_id: world.pmd,
      amount: 100,
      payment_type: 'bank-transfer',
      unique_reference: `events-${tag}-${i}`,
    };
    ids.push((await must(base, 'POST', '/transfer', body)).id);
  }
  for (const id of ids) {
    await until(
      async () => (await must(base, 'GET', `/transfers/${id}?entity_id=${world.entity}`)).status === 'successful',
      `transfer ${id} successful`,
    );
  }
  await until(settled, 'every delivery');
}

/**
 * Streams appended to per transfer and events by type, at positions (from, to]. A transfer's events
 * name it (`transfer.id`, `hold_id`, `transfer_id`, `intent.id`), so each stream is counted once per
 * transfer it served: the account stream that holds every transfer's money counts for each of them.
 */
function streamsIn(dataDir, from, to, count) {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  const transferOf =
    "COALESCE(json_extract(data, '$.transfer.id'), json_extract(data, '$.hold_id'), json_extract(data, '$.transfer_id'), json_extract(data, '$.intent.id'))";
  try {
    const { pairs } = db
      .prepare(
        `SELECT COUNT(*) AS pairs FROM (SELECT DISTINCT ${transferOf} AS t, stream_id FROM events WHERE position > ? AND position <= ? AND t IS NOT NULL)`,
      )
      .get(from, to);
    const rows = db
      .prepare(
        'SELECT type, COUNT(*) AS n FROM events WHERE position > ? AND position <= ? GROUP BY type ORDER BY MIN(position)',
      )
      .all(from, to);
    return { streams: pairs / count, types: rows.map((r) => `${r.type} ${(r.n / count).toFixed(1)}`) };
  } finally {
    db.close();
  }
}

async function eventsPerTransfer(port = Number(process.env.BENCH_EVENTS_PORT || 3990)) {
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-events-'));
  const server = await start('api', port, { ...RECEIVER_ENV, SANDBOX_AUTO_ADVANCE: 'true', DATA_DIR: dataDir });
  const base = `http://127.0.0.1:${port}`;
  try {
    const world = await setUp(base, 1);
    let head = await quietHead(base);

    await transfers(base, world, TRANSFERS, 'plain', async () => true);
    let next = await quietHead(base);
    const without = (next - head) / TRANSFERS;
    const { streams, types } = streamsIn(dataDir, head, next, TRANSFERS);
    head = next;

    await must(base, 'POST', '/entity-webhooks', {
      entity_id: world.entity,
      url: receiver.url('/all'),
      secret: 'bench-events-secret-0123456789',
      enabled_events: { all: true },
    });
    head = await quietHead(base);
    const before = receiver.deliveries();
    // transfer.created/processing/successful and the account's outflow events: at least one delivery each.
    await transfers(base, world, TRANSFERS, 'webhook', async () => receiver.deliveries() - before >= TRANSFERS);
    next = await quietHead(base);
    const withWebhook = (next - head) / TRANSFERS;
    const deliveries = (receiver.deliveries() - before) / TRANSFERS;
    return { transfers: TRANSFERS, without, streams, types, withWebhook, deliveriesPerTransfer: deliveries };
  } finally {
    await stop(server);
    await receiver.close();
  }
}

function printEvents(r) {
  console.log(`\nevents per transfer in the log (${r.transfers} transfers to successful, sandbox network on):`);
  console.log(
    `  without a webhook: ${r.without.toFixed(1)} events in ${r.streams.toFixed(1)} streams (${r.types.join(', ')})`,
  );
  console.log(
    `  with one all-events webhook: ${r.withWebhook.toFixed(1)} (${r.deliveriesPerTransfer.toFixed(1)} deliveries per transfer; delivery bookkeeping in the log: ${(r.withWebhook - r.without).toFixed(1)})`,
  );
}

module.exports = { eventsPerTransfer, printEvents };

if (require.main === module) {
  eventsPerTransfer().then(printEvents, (err) => {
    console.error(err);
    process.exit(1);
  });
}
