'use strict';
/**
 * What the soak holds the server to once the workload and the faults are over, the server was
 * restarted once more and its worker caught up: Jepsen's bank checks (the books balance per
 * currency, no account below zero, every acknowledged write present as acknowledged), every
 * event delivered to every webhook subscribed at its position, at least once and in order per
 * resource, and (after a graceful stop) `replay --verify` and a scan of DATA_DIR for card data.
 */
const { closeSync, openSync, readdirSync, readSync, statSync } = require('node:fs');
const { join } = require('node:path');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// `cancelled` (decisions §14): the soak's workload does not cancel today, but the operator or a future step may.
const TERMINAL_TRANSFER = ['successful', 'failed', 'reversed', 'cancelled'];

/** Whether a resource acknowledged with status `acked` may read `final` at the end. */
const SUCCESSORS = {
  transfer: (acked, final) =>
    acked === null ||
    acked === final ||
    (acked === 'pending' && final === 'cancelled') ||
    (['pending', 'processing'].includes(acked) && ['processing', 'successful', 'failed', 'reversed'].includes(final)) ||
    (acked === 'successful' && final === 'reversed'),
  intent: (acked, final) =>
    acked === final ||
    (acked === 'completed' && final === 'refunded') ||
    !['completed', 'failed', 'cancelled', 'refunded'].includes(acked),
  cardTransaction: (acked, final) =>
    acked === final || (acked === 'pending' && ['successful', 'reversed', 'declined'].includes(final)),
};

/** Runs `fn` over `items`, `width` at a time. */
async function parallel(items, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Every page of a list: style A (`meta.pagination.next_cursor`) or style B (`data.pagination`). */
async function everyPage(client, path, pick) {
  const out = [];
  let cursor = null;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await client.call('GET', `${path}${sep}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (res.status !== 200)
      throw new Error(`GET ${path} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    const { items, next } = pick(res.body);
    out.push(...items);
    if (!next) return out;
    cursor = next;
  }
}
const styleA = (body) => ({
  items: body.data,
  next: body.meta.pagination.next_cursor,
});
const styleB = (key) => (body) => ({
  items: body.data[key],
  next: body.data.pagination.next_cursor,
});

/** Until every projection, the publisher and the process managers' inputs have reached the head. */
async function waitCaughtUp(server, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  for (;;) {
    const h = await server.health();
    last = h && h.log;
    if (
      h &&
      h.worker &&
      h.worker.state === 'running' &&
      last &&
      last.projected === last.head &&
      last.published === last.head
    )
      return last;
    if (Date.now() > deadline)
      throw new Error(`the worker did not catch up within ${timeoutMs / 1000} s: ${JSON.stringify(last)}`);
    await sleep(200);
  }
}

/** Transfers the sandbox network has not finished yet are waited for: a transfer stuck in flight is a violation. */
async function waitTransfersSettled(client, journal, timeoutMs, violation) {
  const deadline = Date.now() + timeoutMs;
  let open = [...journal.transfers.keys()];
  while (open.length) {
    const still = [];
    await parallel(open, 4, async (id) => {
      const t = journal.transfers.get(id);
      const res = await client.call('GET', `/transfers/${id}?entity_id=${t.entity}`);
      if (res.status === 200 && !TERMINAL_TRANSFER.includes(res.body.status)) still.push(id);
    });
    open = still;
    if (!open.length) return;
    if (Date.now() > deadline) {
      violation(
        `${open.length} acknowledged transfers still in flight ${timeoutMs / 1000} s after the end, e.g. ${open[0]}`,
      );
      return;
    }
    await sleep(1_000);
  }
}

/** Every 2xx-acknowledged write is there, with its amount and a status it may have moved to. */
async function checkJournal(client, journal, violation) {
  const counts = {};
  const seen = (kind) => (counts[kind] = (counts[kind] || 0) + 1);
  const get = async (path) => client.call('GET', path);

  await parallel([...journal.entities.keys()], 4, async (id) => {
    const res = await get(`/entities/${id}`);
    if (res.status !== 200) return violation(`acknowledged entity ${id} answers ${res.status}`);
    seen('entities');
  });
  const statements = new Map();
  await parallel([...journal.accounts.entries()], 4, async ([id, a]) => {
    const res = await get(`/accounts/${id}`);
    if (res.status !== 200) return violation(`acknowledged account ${id} answers ${res.status}`);
    if (res.body.currency !== a.currency)
      violation(`account ${id} reads currency ${res.body.currency}, acknowledged ${a.currency}`);
    const { available, current } = res.body.balance;
    if (available < 0 || current < 0) violation(`account ${id} below zero: available ${available}, current ${current}`);
    statements.set(id, await everyPage(client, `/accounts/${id}/transactions`, styleA));
    seen('accounts');
  });
  const credits = new Map();
  for (const entries of statements.values())
    for (const e of entries) if (e.transaction_id) credits.set(e.transaction_id, e);
  for (const f of journal.funds) {
    const entry = credits.get(f.transaction);
    if (!entry) violation(`acknowledged funding ${f.transaction} of ${f.account} is not in its statement`);
    else if (entry.amount !== f.amount || entry.account_id !== f.account)
      violation(
        `funding ${f.transaction} reads ${entry.amount} on ${entry.account_id}, acknowledged ${f.amount} on ${f.account}`,
      );
    else seen('fundings');
  }
  await parallel([...journal.counterparties.keys()], 4, async (id) => {
    const res = await get(`/counterparties/${id}`);
    if (res.status !== 200) return violation(`acknowledged counterparty ${id} answers ${res.status}`);
    const details = await everyPage(client, `/counterparties/${id}/payment-details`, styleA);
    const ids = new Set(details.map((d) => d.id));
    for (const [pmd, d] of journal.details)
      if (d.counterparty === id && !ids.has(pmd))
        violation(`acknowledged payment detail ${pmd} is not listed on ${id}`);
    seen('counterparties');
  });
  await parallel([...journal.transfers.entries()], 4, async ([id, t]) => {
    const res = await get(`/transfers/${id}?entity_id=${t.entity}`);
    if (res.status !== 200) return violation(`acknowledged transfer ${id} answers ${res.status}`);
    if (t.amount != null && res.body.amount !== t.amount)
      violation(`transfer ${id} reads amount ${res.body.amount}, acknowledged ${t.amount}`);
    if (res.body.unique_reference !== t.reference)
      violation(`transfer ${id} reads unique_reference ${res.body.unique_reference}, acknowledged ${t.reference}`);
    if (!SUCCESSORS.transfer(t.status, res.body.status))
      violation(`transfer ${id} reads ${res.body.status}, acknowledged ${t.status}`);
    seen('transfers');
  });
  await parallel([...journal.intents.entries()], 4, async ([id, i]) => {
    const res = await get(`/payment-intents/${id}`);
    if (res.status !== 200) return violation(`acknowledged payment intent ${id} answers ${res.status}`);
    if (res.body.amount !== i.amount)
      violation(`payment intent ${id} reads amount ${res.body.amount}, acknowledged ${i.amount}`);
    if (!SUCCESSORS.intent(i.status, res.body.status))
      violation(`payment intent ${id} reads ${res.body.status}, acknowledged ${i.status}`);
    seen('payment_intents');
  });
  const refundsOf = new Map();
  for (const r of journal.refunds) refundsOf.set(r.intent, [...(refundsOf.get(r.intent) || []), r]);
  await parallel([...refundsOf.entries()], 4, async ([intent, acked]) => {
    const listed = new Map(
      (await everyPage(client, `/payment-intents/${intent}/refunds`, styleA)).map((r) => [r.id, r]),
    );
    for (const r of acked) {
      const got = listed.get(r.id);
      if (!got) violation(`acknowledged refund ${r.id} of ${intent} is not listed`);
      else if (got.amount !== r.amount) violation(`refund ${r.id} reads ${got.amount}, acknowledged ${r.amount}`);
      else seen('refunds');
    }
  });
  await parallel([...journal.cards.entries()], 4, async ([id, c]) => {
    const res = await get(`/card-details/${id}`);
    if (res.status !== 200) return violation(`acknowledged card ${id} answers ${res.status}`);
    if (res.body.data.number !== c.number || res.body.data.cvv !== c.cvv)
      violation(`card ${id} shows other credentials than issued`);
    const listed = new Map(
      (await everyPage(client, `/card-transactions/${id}`, styleB('payments'))).map((t) => [t.id, t]),
    );
    for (const [txn, t] of journal.cardTransactions) {
      if (t.card !== id) continue;
      const got = listed.get(txn);
      if (!got) violation(`acknowledged card transaction ${txn} is not listed on ${id}`);
      else if (!SUCCESSORS.cardTransaction(t.status, got.status))
        violation(`card transaction ${txn} reads ${got.status}, acknowledged ${t.status}`);
      else if (t.status !== 'pending' && got.amount !== t.amount)
        violation(`card transaction ${txn} reads ${got.amount}, acknowledged ${t.amount}`);
      else seen('card_transactions');
    }
    seen('cards');
  });
  await parallel([...journal.webhooks.entries()], 4, async ([id, w]) => {
    const res = await get(`/entity-webhooks/${id}?entity_id=${w.entity}`);
    if (res.status !== 200) return violation(`acknowledged webhook ${id} answers ${res.status}`);
    seen('webhooks');
  });
  return counts;
}

/** The books of the key's organization and mode: each currency balances, no customer account below zero. */
async function checkLedger(client, violation) {
  const res = await client.call('GET', '/ledger');
  if (res.status !== 200) return violation(`GET /ledger answered ${res.status}`);
  const { currencies, accounts } = res.body.data;
  for (const c of currencies) {
    if (c.debits_posted !== c.credits_posted)
      violation(`ledger ${c.currency}: debits posted ${c.debits_posted} ≠ credits posted ${c.credits_posted}`);
    if (c.debits_pending !== c.credits_pending)
      violation(`ledger ${c.currency}: debits pending ${c.debits_pending} ≠ credits pending ${c.credits_pending}`);
  }
  for (const a of accounts) {
    if (a.kind !== 'customer') continue;
    const current = a.credits_posted - a.debits_posted;
    if (current < 0 || current - a.debits_pending < 0)
      violation(`ledger account ${a.id} below zero: current ${current}, pending debits ${a.debits_pending}`);
  }
  return {
    currencies: currencies.map((c) => ({
      currency: c.currency,
      posted: c.debits_posted,
      pending: c.debits_pending,
    })),
    accounts: accounts.length,
  };
}

/**
 * What each webhook must have received: every public event (the worker's own table, PUBLIC_EVENTS,
 * from the dist under test) of every event of its entity after its creation in the log, that its
 * enabled_events cover; as queues per resource (the event's stream) in log order, then the rank
 * of the public event within its domain event. Read through GET /events.
 */
async function expectedDeliveries(client, journal, publicEvents, derivedUlid) {
  const byEntity = new Map();
  const expected = new Map();
  for (const [id, w] of journal.webhooks) {
    const created = await everyPage(client, `/events?resource_type=webhook&resource_id=${id}`, styleA);
    const creation = created.find((e) => e.type === 'WebhookCreated');
    if (!creation) throw new Error(`webhook ${id}: no WebhookCreated in GET /events`);
    if (!byEntity.has(w.entity))
      byEntity.set(w.entity, await everyPage(client, `/events?entity_id=${w.entity}`, styleA));
    const queues = new Map();
    for (const e of byEntity.get(w.entity)) {
      if (e.position <= creation.position) continue;
      const rule = publicEvents[e.type];
      if (!rule) continue;
      for (const name of rule.events) {
        const [group, action] = name.split('.');
        if (!(w.enabled.all === true || (w.enabled[group] || []).includes(action))) continue;
        const queue = `${e.resource_type}:${e.resource_id}`;
        if (!queues.has(queue)) queues.set(queue, []);
        queues.get(queue).push({
          id: `evt_${derivedUlid(e.id.replace(/^evt_/, ''), name)}`,
          name,
          position: e.position,
          type: e.type,
        });
      }
    }
    expected.set(id, queues);
  }
  return expected;
}

/**
 * Compares one webhook's deliveries with what it must get: each expected event at least once,
 * nothing else, and per resource in order (a delivery is the next one of its queue, or the one
 * just delivered again: at-least-once after a worker died between the POST and recording it).
 */
function compareDeliveries(webhookId, queues, received) {
  const problems = [];
  const where = new Map();
  for (const [queue, list] of queues) list.forEach((d, i) => where.set(d.id, { queue, index: i }));
  const cursor = new Map();
  const missing = [];
  for (const r of received) {
    const at = where.get(r.id);
    if (!at) {
      problems.push(
        `webhook ${webhookId} received ${r.event} ${r.id} (about ${r.dataId}), which no event of its entity after its creation explains`,
      );
      continue;
    }
    const next = cursor.get(at.queue) ?? 0;
    if (at.index === next) cursor.set(at.queue, next + 1);
    else if (at.index !== next - 1)
      problems.push(
        `webhook ${webhookId}, resource ${at.queue}: ${queues.get(at.queue)[at.index].name} ${r.id} (#${at.index}) arrived when #${next} (${queues.get(at.queue)[next] ? queues.get(at.queue)[next].name : 'none'}) was due`,
      );
  }
  for (const [queue, list] of queues) {
    const got = cursor.get(queue) ?? 0;
    if (got < list.length) missing.push({ queue, first: list[got], count: list.length - got });
  }
  return { problems, missing };
}

/** Waits until every webhook got all it must (or the time is up), then names what is wrong. */
async function checkWebhooks(client, journal, receiver, dist, timeoutMs, violation) {
  const { PUBLIC_EVENTS } = require(join(dist, 'libs/webhook-delivery/src/mapping/public-events.js'));
  const { derivedUlid } = require(join(dist, 'libs/application/src/webhooks/streams.js'));
  const expected = await expectedDeliveries(client, journal, PUBLIC_EVENTS, derivedUlid);
  const total = [...expected.values()].reduce(
    (n, queues) => n + [...queues.values()].reduce((m, q) => m + q.length, 0),
    0,
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const results = [...journal.webhooks.entries()].map(([id, w]) => ({
      id,
      ...compareDeliveries(id, expected.get(id), receiver.on(w.path)),
    }));
    const missing = results.flatMap((r) => r.missing.map((m) => ({ webhook: r.id, ...m })));
    const problems = results.flatMap((r) => r.problems);
    if (problems.length || !missing.length || Date.now() > deadline) {
      for (const p of problems.slice(0, 20)) violation(p);
      if (missing.length) {
        const m = missing[0];
        violation(
          `${missing.reduce((n, x) => n + x.count, 0)} deliveries missing ${timeoutMs / 1000} s after the end, in ${missing.length} queues; first: webhook ${m.webhook}, resource ${m.queue}, ${m.first.name} of ${m.first.type} at position ${m.first.position} (${m.first.id})`,
        );
      }
      if (receiver.rejected.length)
        violation(
          `${receiver.rejected.length} deliveries failed signature verification, first: ${JSON.stringify(receiver.rejected[0])}`,
        );
      return {
        webhooks: journal.webhooks.size,
        expected: total,
        received: receiver.delivered,
      };
    }
    await sleep(1_000);
  }
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A file as latin1 text in pieces of 64 MB that overlap by 256 bytes (a string has a size limit; a match may straddle two pieces). */
function* chunksOf(file) {
  const size = statSync(file).size;
  const piece = 64 * 1024 * 1024;
  const fd = openSync(file, 'r');
  try {
    for (let at = 0; at < size; at += piece) {
      const length = Math.min(piece + 256, size - at);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, at);
      yield buffer.toString('latin1');
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * No PAN the soak created or sent anywhere in `files`, and no CVV as a value: every run of 16 or
 * more digits is looked up (each 16-digit window of it) among the PANs, and every `cvv` followed
 * within six characters by 3-4 digits is a finding when the digits are a CVV the soak used (or
 * when it is a JSON "cvv" field with a value, whatever the digits). One pass per file.
 * `journal` needs only `pans` and `cvvs` (sets of strings).
 */
function scanForCardData(files, journal, violation) {
  const pans = journal.pans;
  const cvvs = journal.cvvs;
  let bytes = 0;
  for (const file of files) {
    const found = new Set();
    for (const text of chunksOf(file)) {
      bytes += text.length;
      for (const run of text.matchAll(/\d{16,}/g)) {
        for (let i = 0; i + 16 <= run[0].length; i++) {
          const window = run[0].slice(i, i + 16);
          if (pans.has(window)) found.add(`PAN ${window.slice(0, 6)}…${window.slice(-4)}`);
        }
      }
      // `cvv` must start a word: a ULID or base32 id may contain `CVV337` by chance.
      for (const m of text.matchAll(/(?<![A-Za-z0-9])("?)cvv("?)(\W{0,6}?)(\d{3,4})\b/gi)) {
        if (cvvs.has(m[4])) found.add(`CVV ${m[4]} next to "cvv"`);
        else if (m[1] && m[2] && /^\s*:\s*"$/.test(m[3])) found.add('a clear "cvv" field');
      }
    }
    for (const f of found) violation(`${f} found in ${file}`);
  }
  return { files: files.length, bytes, pans: pans.size, cvvs: cvvs.size };
}

module.exports = {
  waitCaughtUp,
  waitTransfersSettled,
  checkJournal,
  checkLedger,
  checkWebhooks,
  scanForCardData,
  filesUnder,
  compareDeliveries,
};
