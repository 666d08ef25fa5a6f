import fc from 'fast-check';
import { isDomainError } from '../../shared';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { balanceOf, type AccountState } from './account';
import { accountDecider, type AccountCommand } from './account.decide';

const ACC = 'acc_01J00000000000000000000000';
const intents = ['pi_a', 'pi_b', 'pi_c', 'pi_d'];

const step = fc.oneof(
  fc.record({ type: fc.constant('CreditCollection' as const), intent: fc.constantFrom(...intents), amount: fc.integer({ min: 1, max: 1_000_000 }), fee: fc.integer({ min: 0, max: 40_000 }) }),
  fc.record({ type: fc.constant('RefundCollection' as const), intent: fc.constantFrom(...intents), refund: fc.integer({ min: 0, max: 30 }), amount: fc.integer({ min: 1, max: 800_000 }) }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const opened = () =>
  (
    accountDecider.decide(
      {
        type: 'OpenAccount',
        account_id: ACC,
        entity: { id: 'ent_1', status: 'approved' },
        mode: 'sandbox',
        account_type: 'checking',
        currency: 'USD',
        display_name: 'M',
        service_ban: newServiceBan(seededRandom(1)),
        now: 0,
      },
      accountDecider.initialState,
    ) as AccountEvent[]
  ).reduce(accountDecider.evolve, accountDecider.initialState);

function toCommand(s: Step, i: number): AccountCommand {
  const base = { account_id: ACC, payment_intent_id: s.intent, currency: 'USD', now: i };
  if (s.type === 'CreditCollection') return { ...base, type: s.type, amount: s.amount, fee: Math.min(s.fee, s.amount) };
  return { ...base, type: s.type, refund_id: `rfd_${s.refund}`, amount: s.amount, reason: null };
}

describe('collections on the account stream (decisions §7)', () => {
  it('for any sequence of completions and refunds: balance = credits − refunds, no refund total above its charge, never below zero', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let state: AccountState = opened();
        let credits = 0;
        let refunds = 0;
        const charged = new Map<string, number>();
        const refunded = new Map<string, number>();
        steps.forEach((s, i) => {
          const result = accountDecider.decide(toCommand(s, i), state);
          if (isDomainError(result)) return expect(['refund_exceeds_charge', 'insufficient_funds', 'collection_not_credited']).toContain(result.code);
          for (const event of result) {
            state = accountDecider.evolve(state, event);
            if (event.type === 'CollectionCredited') {
              credits += event.data.net;
              charged.set(event.data.payment_intent_id, event.data.amount);
            }
            if (event.type === 'CollectionRefunded') {
              refunds += event.data.amount;
              refunded.set(event.data.payment_intent_id, (refunded.get(event.data.payment_intent_id) ?? 0) + event.data.amount);
            }
          }
        });
        if (state.status !== 'open') throw new Error('account closed');
        expect(balanceOf(state)).toEqual({ available: credits - refunds, current: credits - refunds });
        expect(credits - refunds).toBeGreaterThanOrEqual(0);
        for (const [intent, total] of refunded) expect(total).toBeLessThanOrEqual(charged.get(intent)!);
      }),
      { numRuns: 400 },
    );
  });

  it('credits a collection once, and applies a refund id once', () => {
    let state = opened();
    const credit: AccountCommand = { type: 'CreditCollection', account_id: ACC, payment_intent_id: 'pi_a', amount: 1000, fee: 29, currency: 'USD', now: 1 };
    for (const e of accountDecider.decide(credit, state) as AccountEvent[]) state = accountDecider.evolve(state, e);
    expect(accountDecider.decide(credit, state)).toEqual([]);
    const refund: AccountCommand = { type: 'RefundCollection', account_id: ACC, payment_intent_id: 'pi_a', refund_id: 'rfd_1', amount: 500, currency: 'USD', reason: null, now: 2 };
    for (const e of accountDecider.decide(refund, state) as AccountEvent[]) state = accountDecider.evolve(state, e);
    expect(accountDecider.decide(refund, state)).toEqual([]);
    expect(state.status === 'open' && balanceOf(state)).toEqual({ available: 471, current: 471 });
  });

  it('checks the charge before the balance', () => {
    let state = opened();
    const credit: AccountCommand = { type: 'CreditCollection', account_id: ACC, payment_intent_id: 'pi_a', amount: 1000, fee: 900, currency: 'USD', now: 1 };
    for (const e of accountDecider.decide(credit, state) as AccountEvent[]) state = accountDecider.evolve(state, e);
    const refund = (amount: number): AccountCommand => ({ type: 'RefundCollection', account_id: ACC, payment_intent_id: 'pi_a', refund_id: 'rfd_x', amount, currency: 'USD', reason: null, now: 2 });
    expect(accountDecider.decide(refund(1001), state)).toMatchObject({ code: 'refund_exceeds_charge' });
    expect(accountDecider.decide(refund(101), state)).toMatchObject({ code: 'insufficient_funds' });
  });
});
