import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import {
  BANK_USD,
  advance,
  balanceOf,
  eventually,
  paymentDetail,
  payer,
  post,
  statement,
  transferBody,
} from './helpers';

/**
 * Many transfers at once against one account, more than its balance can cover, some sharing a
 * reference: no overdraft, no duplicate, and what was funded is exactly what was debited, what is
 * still held and what remains, counted from the statement and from the balance, which agree.
 */
describe('transfers under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('never overdraws, never duplicates, and conserves money', async () => {
    const FUNDED = 100_000;
    const p = await payer(t, 'USD', FUNDED);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    // 80 requests over 50 references (30 repeats), each 4_000 + 10 fee: 50 × 4_010 = 200_500 asked, 100_000 funded.
    const refs = Array.from({ length: 80 }, (_, i) => `burst-${i % 50}`);
    const responses = await Promise.all(
      refs.map((ref) => post(t, transferBody(p.account, bank, { amount: 4_000, unique_reference: ref }))),
    );

    const byStatus = (s: number) => responses.filter((r) => r.status === s);
    expect(responses.every((r) => [201, 409, 422].includes(r.status))).toBe(true);
    const created = byStatus(201).map((r) => r.body);
    // No duplicate: one transfer per reference, and every 409 names the transfer created for that reference.
    expect(new Set(created.map((c) => c.unique_reference)).size).toBe(created.length);
    const idByRef = new Map(created.map((c) => [c.unique_reference, c.id]));
    for (const r of byStatus(409)) expect(r.body.id).toBe(idByRef.get(r.body.unique_reference));
    for (const r of byStatus(422)) expect(r.body.code).toBe('insufficient_funds');
    // No overdraft: the balance covered exactly floor(100_000 / 4_010) = 24 of them.
    expect(created).toHaveLength(Math.floor(FUNDED / 4_010));

    // Move them on: a third succeed, a third fail, the rest stay pending.
    const [succeed, fail] = [created.filter((_, i) => i % 3 === 0), created.filter((_, i) => i % 3 === 1)];
    await Promise.all([
      ...succeed.map(async (c) => {
        await advance(t, c.id, { to: 'processing' }).expect(200);
        await advance(t, c.id, { to: 'successful' }).expect(200);
      }),
      ...fail.map((c) => advance(t, c.id, { to: 'failed' }).expect(200)),
    ]);
    const debited = succeed.length * 4_010;
    const stillHeld = (created.length - succeed.length - fail.length) * 4_010;
    const balance = await eventually(
      () => balanceOf(t, p.account),
      (b) => b.current === FUNDED - debited && b.current - b.available === stillHeld,
      'money settled',
    );

    // From the balance.
    expect(balance.available).toBeGreaterThanOrEqual(0);
    expect(debited + stillHeld + balance.available).toBe(FUNDED);
    // From the statement, which must agree with the balance.
    const entries = await eventually(
      () => statement(t, p.account),
      (e) => e.length === 1 + created.length + succeed.length + fail.length,
      'statement complete',
    );
    const sum = (type: string) => entries.filter((e) => e.type === type).reduce((a, e) => a + e.amount, 0);
    expect(sum('credit')).toBe(FUNDED);
    expect(sum('debit')).toBe(debited);
    expect(sum('hold') - sum('debit') - sum('release')).toBe(stillHeld);
    expect(sum('credit') - sum('debit')).toBe(balance.current);
    expect(entries[entries.length - 1].balance_after).toEqual(balance);
    expect(entries.every((e) => e.balance_after.available >= 0)).toBe(true);
    // Every hold belongs to a transfer that exists; none for a refused or duplicate request.
    expect(new Set(entries.filter((e) => e.type === 'hold').map((e) => e.transfer_id))).toEqual(
      new Set(created.map((c) => c.id)),
    );
    await t.settle();
    const listed = await t.http
      .get(`/transfers?entity_id=${p.entity}&account_id=${p.account}&limit=100`)
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(listed.body.data).toHaveLength(created.length);
  });
});
