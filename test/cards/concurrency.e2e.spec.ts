import { startTestApp, type TestApp } from '../support/test-app';
import { authorize, balance, details, holder, virtualCard } from './helpers';

/**
 * The card stream decides every authorization against the usage it holds, so simultaneous
 * requests are serialised on it: a daily limit that covers ten lets exactly ten through.
 */
describe('card authorizations under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('50 simultaneous authorizations against a daily limit covering 10: exactly 10 pass', async () => {
    const h = await holder(t, 'USD', 1_000_000);
    const card = await virtualCard(t, h.account, { individual_controls: { daily_amount_limit: 10_000 } });
    const responses = await Promise.all(Array.from({ length: 50 }, () => authorize(t, card.id, { amount: 1_000 })));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const passed = responses.filter((r) => r.body.data.status === 'successful');
    const declined = responses.filter((r) => r.body.data.status === 'declined');
    expect(passed).toHaveLength(10);
    expect(declined).toHaveLength(40);
    expect(declined.every((r) => r.body.data.status_reason === 'limit_exceeded')).toBe(true);
    expect(await balance(t, h.account)).toEqual({ available: 990_000, current: 990_000 });
    expect((await details(t, card.id)).body.data).toMatchObject({
      daily_amount_limit_used: 10_000,
      daily_amount_limit_hold: 0,
      daily_amount_limit_balance: 0,
    });
  });

  it('50 simultaneous authorizations against a balance covering 10: exactly 10 pass, none overdraws', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => authorize(t, card.id, { amount: 1_000, capture: false })),
    );
    const statuses = responses.map((r) => r.body.data.status);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(10);
    expect(
      responses
        .filter((r) => r.body.data.status === 'declined')
        .every((r) => r.body.data.status_reason === 'insufficient_funds'),
    ).toBe(true);
    expect(await balance(t, h.account)).toEqual({ available: 0, current: 10_000 });
    expect((await details(t, card.id)).body.data).toMatchObject({ amount_hold: 10_000, amount_used: 0 });
  });
});
