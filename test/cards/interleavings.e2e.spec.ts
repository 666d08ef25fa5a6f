import fc from 'fast-check';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { account, authorize, balance, details, holder, MERCHANT, virtualCard } from './helpers';

const LIMITS = {
  amount: 20_000,
  daily_amount_limit: 9_000,
  daily_transaction_count: 8,
  cycle_transaction_count: 12,
} as const;
const FUNDS = { usd: 12_000, eur: 6_000 };

type Step =
  | { kind: 'authorize'; amount: number; capture: boolean; mcc: string }
  | { kind: 'freeze' | 'unfreeze' | 'reassign' }
  | { kind: 'capture'; pick: number; amount: number | null }
  | { kind: 'reverse'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('authorize' as const),
      amount: fc.integer({ min: 1, max: 4_000 }),
      capture: fc.boolean(),
      mcc: fc.constantFrom('5311', '5942'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      pick: fc.nat(),
      amount: fc.option(fc.integer({ min: 1, max: 4_000 })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }) },
  fc.record({ kind: fc.constantFrom('freeze' as const, 'unfreeze' as const, 'reassign' as const) }),
);

/**
 * Real concurrency through HTTP: every step of a batch is sent at once (captures and reversals
 * aim at transactions left pending by earlier batches, so they race each other), then the card,
 * its transactions and both accounts must agree and respect every limit.
 */
describe('card interleavings through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const send = (state: { card: string; accounts: string[]; on: number; pending: string[] }, s: Step) => {
    const key = bearer(KEYS.sandbox);
    switch (s.kind) {
      case 'authorize':
        return authorize(t, state.card, {
          amount: s.amount,
          capture: s.capture,
          merchant: { ...MERCHANT, mcc: s.mcc },
        });
      case 'freeze':
      case 'unfreeze':
        return t.http.patch(`/card-details/${state.card}/${s.kind}`).set(key);
      case 'reassign':
        state.on = 1 - state.on;
        return t.http.patch(`/cards/${state.card}/account`).set(key).send({ account_id: state.accounts[state.on] });
      case 'capture':
      case 'reverse': {
        const id = state.pending[s.pick % Math.max(1, state.pending.length)];
        if (!id) return Promise.resolve(null);
        const body = s.kind === 'capture' && s.amount !== null ? { amount: s.amount } : {};
        return t.http.post(`/sandbox/card-transactions/${id}/${s.kind}`).set(key).send(body);
      }
    }
  };

  async function transactions(card: string) {
    const res = await t.http
      .get(`/card-transactions/${card}`)
      .query({ limit: '100' })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    return res.body.data.payments as Array<{
      id: string;
      status: string;
      amount: number;
      account_id: string;
      fx: { account_amount: number } | null;
    }>;
  }

  it('never passes a limit or a balance; money and usage agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(step, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          const h = await holder(t, 'USD', FUNDS.usd);
          const eur = await account(t, h.entity, 'EUR', FUNDS.eur);
          const { amount, ...individual } = LIMITS;
          const card = await virtualCard(t, h.account, {
            amount,
            individual_controls: individual,
            individual_mcc_controls: [{ mcc: '5942', daily_amount_limit: 3_000 }],
          });
          const state = { card: card.id, accounts: [h.account, eur], on: 0, pending: [] as string[] };
          for (const batch of batches) {
            const responses = await Promise.all(batch.map((s) => send(state, s)));
            for (const r of responses) expect(r === null || r.status < 500).toBe(true);
            state.pending = (await transactions(card.id)).filter((x) => x.status === 'pending').map((x) => x.id);
          }
          const txs = await transactions(card.id);
          const d = (await details(t, card.id).expect(200)).body.data;
          for (const [prefix, limit] of Object.entries(LIMITS)) {
            expect(d[`${prefix}_used`] + d[`${prefix}_hold`]).toBeLessThanOrEqual(limit);
            expect(d[`${prefix}_balance`]).toBe(limit - d[`${prefix}_used`] - d[`${prefix}_hold`]);
          }
          const sum = (xs: typeof txs) => xs.reduce((s, x) => s + x.amount, 0);
          expect(d.amount_used).toBe(sum(txs.filter((x) => x.status === 'successful')));
          expect(d.amount_hold).toBe(sum(txs.filter((x) => x.status === 'pending')));
          for (const [id, funded] of [
            [h.account, FUNDS.usd],
            [eur, FUNDS.eur],
          ] as const) {
            const mine = txs.filter((x) => x.account_id === id);
            const inAccount = (xs: typeof txs) => xs.reduce((s, x) => s + (x.fx ? x.fx.account_amount : x.amount), 0);
            const b = await balance(t, id);
            expect(b.available).toBeGreaterThanOrEqual(0);
            expect(b.current).toBe(funded - inAccount(mine.filter((x) => x.status === 'successful')));
            expect(b.current - b.available).toBe(inAccount(mine.filter((x) => x.status === 'pending')));
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
