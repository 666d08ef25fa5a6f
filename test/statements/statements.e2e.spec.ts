import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorize, virtualCard } from '../cards/helpers';
import { CARD_FEE, card, cardAction, confirm, createIntent, encrypt, publicKeyOf } from '../collections/helpers';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import {
  BANK_USD,
  advance,
  eventually,
  paymentDetail,
  payer,
  post,
  statement as transactionsOf,
  transferBody,
} from '../transfers/helpers';

jest.setTimeout(120_000);

const TOKEN = 'op_' + 's'.repeat(40);

interface Line {
  id: string;
  type: string;
  amount: number;
  fee: number | null;
  transfer_id: string | null;
  transaction_id: string | null;
  payment_intent_id: string | null;
  balance_after: { available: number; current: number };
  created: number;
  position: number;
}
interface Statement {
  account_id: string;
  currency: string;
  period: { from: number; to: number };
  opening_balance: number;
  closing_balance: number;
  credits_total: number;
  debits_total: number;
  lines: Line[];
  positions: { first: number | null; last: number | null };
  checkpoint: { root_hash: string; signature: string; last_position: number } | null;
  proof: { leaf: { position: number } } | null;
}

/**
 * The text a PDF reader finds in a PDF (pdf-parse, on Mozilla's pdf.js). In a child process: pdf.js
 * loads its worker with a dynamic import, which Jest's module sandbox refuses.
 */
function pdfText(pdf: Buffer): string {
  const read = `const { PDFParse } = require('pdf-parse');
    const chunks = []; process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      process.stdout.write((await parser.getText()).text); await parser.destroy(); });`;
  const run = spawnSync(process.execPath, ['-e', read], { input: pdf, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`pdf-parse could not read the PDF: ${run.stderr}`);
  return run.stdout;
}

/**
 * Statements (decisions §17) of a month with every kind of money movement. Accounts take their
 * time from the real clock (Date.now() in the command handlers, occurred_at in the log), so the
 * month with events is the current one; a past month is one before the account existed.
 */
describe('GET /accounts/{id}/statements/{YYYY-MM} (decisions §17)', () => {
  let t: TestApp;
  let p: Awaited<ReturnType<typeof payer>>;
  let month: string;
  let s: Statement;
  let fees: { payout: number; reversed: number };
  const dir = mkdtempSync(join(tmpdir(), 'statements-'));

  const get = (path: string, accept = 'application/json') =>
    t.http.get(path).set(bearer(KEYS.sandbox)).set('Accept', accept);
  const statementOf = async (m = month): Promise<Statement> =>
    (await get(`/accounts/${p.account}/statements/${m}`).expect(200)).body.data;

  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: TOKEN, AUDIT_CHECKPOINT_INTERVAL_MS: '300' });
    month = new Date().toISOString().slice(0, 7);
    p = await payer(t, 'USD', 200_000);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);

    // A payout settled, one failed and one cancelled (held, then released: no line), one settled and then reversed.
    const settled = (await post(t, transferBody(p.account, bank, { amount: 10_000 })).expect(201)).body as {
      id: string;
      fee: number;
    };
    await advance(t, settled.id, { to: 'processing' }).expect(200);
    await advance(t, settled.id, { to: 'successful' }).expect(200);
    const failed = (await post(t, transferBody(p.account, bank, { amount: 4_000 })).expect(201)).body as { id: string };
    await advance(t, failed.id, { to: 'failed' }).expect(200);
    const cancelled = (await post(t, transferBody(p.account, bank, { amount: 6_000 })).expect(201)).body as {
      id: string;
    };
    await t.http
      .post(`/transfers/${cancelled.id}/cancel`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: p.entity })
      .expect(200);
    const reversed = (await post(t, transferBody(p.account, bank, { amount: 5_000 })).expect(201)).body as {
      id: string;
      fee: number;
    };
    await advance(t, reversed.id, { to: 'processing' }).expect(200);
    await advance(t, reversed.id, { to: 'successful' }).expect(200);
    await advance(t, reversed.id, { to: 'reversed', status_reason: 'returned_by_bank' }).expect(200);
    fees = { payout: settled.fee, reversed: reversed.fee };

    // A card authorization captured in part, and one left pending (a hold: never a line).
    const usdCard = await virtualCard(t, p.account);
    const captured = (await authorize(t, usdCard.id, { amount: 4_000, capture: false }).expect(201)).body.data;
    await t.http
      .post(`/sandbox/card-transactions/${captured.id}/capture`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 3_000 })
      .expect(200);
    await authorize(t, usdCard.id, { amount: 2_000, capture: false }).expect(201);

    // A collection into the account with its fee, refunded in part.
    const intent = await createIntent(t, p.account, { amount: 10_000 });
    const confirmed = await confirm(
      t,
      intent.id,
      cardAction(
        encrypt(await publicKeyOf(t), card()),
        { return_url: undefined },
        { auth_model: '3ds_disabled', browser_info: undefined },
      ),
    ).expect(201);
    expect(confirmed.body.status).toBe('completed');
    await t.http
      .post(`/payment-intents/${intent.id}/refunds`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 4_000 })
      .expect(201);

    // The payouts settle, void and come back through the log's process managers; a checkpoint then signs the last line.
    s = await eventually(
      () => statementOf(),
      (x) =>
        x.lines.length === 7 && x.checkpoint !== null && x.checkpoint.last_position >= (x.positions.last ?? Infinity),
      'every line posted and signed',
    );
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the posted movements oldest first, pending holds and releases left out, each with the balance after it', () => {
    expect(s.lines.map((l) => [l.type, l.amount])).toEqual([
      ['credit', 200_000],
      ['debit', 10_000 + fees.payout],
      ['debit', 5_000 + fees.reversed],
      ['reversal', 5_000 + fees.reversed],
      ['debit', 3_000],
      ['credit', 10_000 - CARD_FEE],
      ['debit', 4_000],
    ]);
    let balance = s.opening_balance;
    for (const l of s.lines) {
      balance += l.type === 'debit' ? -l.amount : l.amount;
      expect(l.balance_after.current).toBe(balance);
    }
    const positions = s.lines.map((l) => l.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(s.positions).toEqual({ first: positions[0], last: positions[positions.length - 1] });
  });

  it('has exact totals, and its closing balance is the account as_of the month’s end', async () => {
    const from = Date.parse(`${month}-01T00:00:00Z`);
    expect(s).toMatchObject({
      account_id: p.account,
      currency: 'USD',
      period: { from, to: Date.UTC(new Date(from).getUTCFullYear(), new Date(from).getUTCMonth() + 1, 1) },
    });
    expect(s.opening_balance).toBe(0);
    expect(s.credits_total).toBe(200_000 + 5_000 + fees.reversed + 10_000 - CARD_FEE);
    expect(s.debits_total).toBe(10_000 + fees.payout + 5_000 + fees.reversed + 3_000 + 4_000);
    expect(s.closing_balance).toBe(s.opening_balance + s.credits_total - s.debits_total);
    const asOf = (await get(`/accounts/${p.account}?as_of=${s.period.to - 1}`).expect(200)).body;
    expect(s.closing_balance).toBe(asOf.balance.current);
    // The pending card hold is in available, never in a line.
    expect(asOf.balance.available).toBe(asOf.balance.current - 2_000);
    // The same entries GET /accounts/{id}/transactions lists, less holds and releases.
    const posted = (await transactionsOf(t, p.account)).filter((e) => e.type !== 'hold' && e.type !== 'release');
    expect(s.lines.map(({ position: _, ...l }) => l)).toEqual(posted);
  });

  it('as CSV: a header, one row per JSON line, then the totals', async () => {
    const res = await get(`/accounts/${p.account}/statements/${month}`, 'text/csv').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain(`statement-${p.account}-${month}.csv`);
    const rows = res.text
      .trimEnd()
      .split('\r\n')
      .map((r) => r.split(','));
    const [header, ...rest] = rows;
    expect(header).toEqual([
      'id',
      'created',
      'type',
      'amount',
      'fee',
      'transfer_id',
      'transaction_id',
      'payment_intent_id',
      'balance_after_current',
      'balance_after_available',
      'position',
    ]);
    const cell = (v: unknown) => (v === null ? '' : String(v));
    expect(rest.slice(0, -4)).toEqual(
      s.lines.map((l) =>
        [
          l.id,
          l.created,
          l.type,
          l.amount,
          l.fee,
          l.transfer_id,
          l.transaction_id,
          l.payment_intent_id,
          l.balance_after.current,
          l.balance_after.available,
          l.position,
        ].map(cell),
      ),
    );
    expect(rest.slice(-4).map((r) => [r[0], Number(r[3])])).toEqual([
      ['opening_balance', s.opening_balance],
      ['credits_total', s.credits_total],
      ['debits_total', s.debits_total],
      ['closing_balance', s.closing_balance],
    ]);
  });

  it('as PDF: a document a PDF reader opens, with the closing balance and the checkpoint’s root', async () => {
    const res = await get(`/accounts/${p.account}/statements/${month}`, 'application/pdf')
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/pdf/);
    const text = pdfText(res.body as Buffer);
    expect(text).toContain(p.account);
    expect(text).toContain(
      `Closing balance: ${(s.closing_balance / 100).toFixed(2)} USD (${s.closing_balance} minor units)`,
    );
    expect(text.replace(/\s+/g, '')).toContain(s.checkpoint!.root_hash);
  });

  it('verifies offline with examples/verify-proof.mjs, and fails when one line is altered', async () => {
    const key = (
      await t.http
        .get('/admin/audit/checkpoints')
        .set({ Authorization: `Bearer ${TOKEN}` })
        .expect(200)
    ).body.key.public_key as string;
    writeFileSync(join(dir, 'audit-key.pem'), key);
    const verify = (body: unknown) => {
      writeFileSync(join(dir, 'statement.json'), JSON.stringify(body));
      return spawnSync(
        process.execPath,
        [
          'examples/verify-proof.mjs',
          '--statement',
          join(dir, 'statement.json'),
          '--public-key',
          join(dir, 'audit-key.pem'),
        ],
        { encoding: 'utf8' },
      );
    };
    const ok = verify({ data: s });
    expect(ok.stdout).toMatch(/^OK: the 7 line\(s\) of acc_/);
    expect(ok.status).toBe(0);

    const altered = structuredClone(s);
    altered.lines[2].amount += 100;
    const bad = verify({ data: altered });
    expect(bad.stdout).toMatch(/^FAILED: line 2 .*balance_after\.current/);
    expect(bad.status).toBe(1);

    // The proof names the last line's event: a statement cut short no longer matches it.
    const cut = structuredClone(s);
    cut.lines.pop();
    Object.assign(cut, {
      closing_balance: cut.lines[cut.lines.length - 1].balance_after.current,
      debits_total: s.debits_total - 4_000,
      positions: { ...s.positions, last: cut.lines[cut.lines.length - 1].position },
    });
    const short = verify({ data: cut });
    expect(short.stdout).toMatch(/^FAILED: the proof is not of the statement's last line/);
    expect(short.status).toBe(1);
  });

  it('a month before the account existed: no lines, balances 0, no positions or proof', async () => {
    expect(await statementOf('2020-01')).toEqual({
      account_id: p.account,
      currency: 'USD',
      period: { from: Date.UTC(2020, 0, 1), to: Date.UTC(2020, 1, 1) },
      opening_balance: 0,
      closing_balance: 0,
      credits_total: 0,
      debits_total: 0,
      lines: [],
      positions: { first: null, last: null },
      checkpoint: null,
      proof: null,
    });
  });

  it('refuses a future month and a malformed one (400), and an unknown account (404)', async () => {
    const next = new Date(Date.parse(`${month}-01T00:00:00Z`));
    next.setUTCMonth(next.getUTCMonth() + 1);
    const future = await get(`/accounts/${p.account}/statements/${next.toISOString().slice(0, 7)}`).expect(400);
    expect(future.body).toMatchObject({ code: 'validation_error' });
    for (const bad of ['2026-13', '2026-1', 'latest'])
      await get(`/accounts/${p.account}/statements/${bad}`).expect(400);
    await get(`/accounts/acc_01ARZ3NDEKTSV4RRFFQ69G5FAV/statements/${month}`).expect(404);
  });
});
