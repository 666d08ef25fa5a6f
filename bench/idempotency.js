'use strict';
// The cost of `Idempotency-Key` on POST /transfer (issue 21, decisions §13): the same transfer
// requests on the same kind of world without a key, with a fresh key each (claim, lease renewal
// and stored answer: two writes to the idempotency store), and one keyed request replayed (a read
// of the stored answer, nothing runs). Measured as write routes (phases.writeRoute), side by side.
const { setUp } = require('./world');

const run = `${process.pid}-${Date.now().toString(36)}`;
const NONE = 'POST /transfer (Idempotency-Key: none)';
const FRESH = 'POST /transfer (Idempotency-Key: a new one each)';
const REPLAY = 'POST /transfer (Idempotency-Key: replayed)';

const transfer = (world, n, tag) => ({
  method: 'POST',
  path: '/transfer',
  body: {
    account_id: world.accounts[n % world.accounts.length],
    payment_detail_id: world.pmd,
    amount: 100,
    payment_type: 'bank-transfer',
    unique_reference: `bench-${tag}-${run}-${n}`,
  },
});

const IDEMPOTENCY_ROUTES = [
  { name: NONE, prepare: (base) => setUp(base), request: (w, n) => transfer(w, n, 'none') },
  {
    name: FRESH,
    prepare: (base) => setUp(base),
    request: (w, n) => ({ ...transfer(w, n, 'keyed'), headers: { 'idempotency-key': `bench-${run}-${n}` } }),
  },
  // One request, sent again and again: the first runs, every other is the stored answer.
  {
    name: REPLAY,
    prepare: (base) => setUp(base),
    request: (w) => ({ ...transfer(w, 0, 'replayed'), headers: { 'idempotency-key': `bench-replayed-${run}` } }),
  },
];

/** One line per keyed variant measured: its rate and latency beside the same requests without a key. */
function idempotencyCost(measured) {
  const by = (name) => measured.find((r) => r.name === name);
  const base = by(NONE);
  if (!base) return [];
  const pct = (a, b) => `${(((a - b) / b) * 100).toFixed(1)}%`;
  return [FRESH, REPLAY]
    .map(by)
    .filter(Boolean)
    .map(
      (r) =>
        `  ${r.name}: ${r.full.rps} req/s (${pct(r.full.rps, base.full.rps)} vs ${base.full.rps} without), ` +
        `p50/p99 at 50% ${r.half.p50}/${r.half.p99} ms (without: ${base.half.p50}/${base.half.p99} ms at ${base.rate}/s)`,
    );
}

module.exports = { IDEMPOTENCY_ROUTES, idempotencyCost };
