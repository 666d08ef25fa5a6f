'use strict';
// What the duplicate-key scan (apps/api/src/http/json-scan.ts, decisions §2) adds to reading a
// JSON body: per body, the scan beside what body-parser does anyway (decode and JSON.parse), for
// a transfer's body, a body of many small objects, and a 1 MB body of one long string.
// Prints the figures; it asserts nothing. Run: node -r ./scripts/ts-register.js bench/json-scan.js
// (or, after `npm run build`, plain node: it takes dist/ when there is one).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '../dist/apps/api/src/http/json-scan.js');
const { scanJson } = require(
  existsSync(built) && !require.extensions['.ts'] ? built : '../apps/api/src/http/json-scan.ts',
);

const transfer = {
  account_id: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  payment_detail_id: 'pmd_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  amount: 100,
  payment_type: 'bank-transfer',
  unique_reference: 'invoice-2026-11-27-0001',
  description: 'November rent',
};
const items = {
  items: Array.from({ length: 2000 }, (_, i) => ({
    id: `item_${i}`,
    amount: i,
    currency: 'USD',
    tags: ['a', 'b'],
    meta: { n: i },
  })),
};
const BODIES = [
  ['transfer body', Buffer.from(JSON.stringify(transfer))],
  ['2,000 small objects', Buffer.from(JSON.stringify(items))],
  ['1 MB string', Buffer.from(JSON.stringify({ padding: 'x'.repeat(1_000_000) }))],
];

/** Microseconds per call of `fn`, over about half a second after a warm-up. */
function perCall(fn) {
  for (let i = 0; i < 200; i++) fn();
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 500_000_000n) {
    for (let i = 0; i < 50; i++) fn();
    calls += 50;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / 1000 / calls;
}

// Figures on a loaded machine move by tens of percent between runs: compare columns of one run.
console.log('body                    bytes   decode+JSON.parse µs   scan µs   scan / parse');
for (const [name, bytes] of BODIES) {
  if (scanJson(bytes, 64)) throw new Error(`the scan refused the valid ${name}`);
  const parse = perCall(() => JSON.parse(bytes.toString('utf8')));
  const scan = perCall(() => scanJson(bytes, 64));
  const row = [
    name.padEnd(22),
    String(bytes.length).padStart(7),
    parse.toFixed(1).padStart(22),
    scan.toFixed(1).padStart(9),
    `${((scan / parse) * 100).toFixed(0)}%`.padStart(14),
  ];
  console.log(row.join(' '));
}
