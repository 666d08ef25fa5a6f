import fc from 'fast-check';
import { isDomainError } from '../../shared';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { collectionIn } from './account.collections';
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

/** The command as a caller builds it: what the account's log says of the collection, read after the fold. */
function toCommand(s: Step, i: number, log: readonly AccountEvent[]): AccountCommand {
  const base = { account_id: ACC, payment_intent_id: s.intent, currency: 'USD', now: i };
  const facts = collectionIn(log, s.intent);
  if (s.type === 'CreditCollection') return { ...base, type: s.type, amount: s.amount, fee: Math.min(s.fee, s.amount), already_credited: facts.charged !== null };
  return { ...base, type: s.type, refund_id: `rfd_${s.refund}`, amount: s.amount, reason: null, collection: facts };
}

/** Given these events, when the command: the events decided (a domain error throws). */
function when(given: readonly AccountEvent[], command: AccountCommand): AccountEvent[] {
  const decided = accountDecider.decide(command, given.reduce(accountDecider.evolve, opened()));
  if (isDomainError(decided)) throw Object.assign(new Error(decided.code), { code: decided.code });
  return [...decided];
}

const credit = (log: readonly AccountEvent[], intent = 'pi_a', amount = 1000, fee = 29): AccountCommand => ({
  type: 'CreditCollection',
  account_id: ACC,
  payment_intent_id: intent,
  amount,
  fee,
  currency: 'USD',
  now: 1,
  already_credited: collectionIn(log, intent).charged !== null,
});
const refund = (log: readonly AccountEvent[], id: string, amount: number, intent = 'pi_a'): AccountCommand => ({
  type: 'RefundCollection',
  account_id: ACC,
  payment_intent_id: intent,
  refund_id: id,
  amount,
  currency: 'USD',
  reason: null,
  now: 2,
  collection: collectionIn(log, intent),
});

describe('collections on the account stream (decisions §7)', () => {
  it('for any sequence of completions and refunds (retries included): balance = credits − refunds, no refund total above its charge, never below zero', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let state: AccountState = opened();
        const log: AccountEvent[] = [];
        let credits = 0;
        let refunds = 0;
        const charged = new Map<string, number>();
        const refunded = new Map<string, number>();
        steps.forEach((s, i) => {
          const result = accountDecider.decide(toCommand(s, i, log), state);
          if (isDomainError(result)) return expect(['refund_exceeds_charge', 'insufficient_funds', 'collection_not_credited']).toContain(result.code);
          for (const event of result) {
            state = accountDecider.evolve(state, event);
            log.push(event);
            if (event.type === 'CollectionCredited') {
              expect(charged.has(event.data.payment_intent_id)).toBe(false);
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

  it('a retried credit is applied once: given the intent credited, when credited again, then nothing', () => {
    const given = when([], credit([]));
    expect(given).toMatchObject([{ type: 'CollectionCredited', data: { payment_intent_id: 'pi_a', net: 971 } }]);
    expect(when(given, credit(given))).toEqual([]);
  });

  it('a retried refund is applied once: given the refund debited, when the same refund id again, then nothing', () => {
    const credited = when([], credit([]));
    const given = [...credited, ...when(credited, refund(credited, 'rfd_1', 500))];
    expect(when(given, refund(given, 'rfd_1', 500))).toEqual([]);
    expect(given.reduce(accountDecider.evolve, opened())).toMatchObject({ current: 471 });
  });

  it('concurrent refunds never pass the charge: the second, decided again on the log after the first, is refused', () => {
    const given = [...when([], credit([], 'pi_a', 1000, 0)), ...when([], credit([], 'pi_b', 5000, 0))];
    // Both decided on one fold: each alone fits. The first append wins; the second meets a changed
    // revision, so its caller folds and reads the log again before deciding.
    const first = when(given, refund(given, 'rfd_1', 700));
    expect(first).toHaveLength(1);
    const after = [...given, ...first];
    expect(() => when(after, refund(after, 'rfd_2', 700))).toThrow('refund_exceeds_charge');
    expect(when(after, refund(after, 'rfd_2', 300))).toHaveLength(1);
  });

  it('checks the charge before the balance, and refuses a refund of a collection the log does not hold', () => {
    const given = when([], credit([], 'pi_a', 1000, 900));
    expect(() => when(given, refund(given, 'rfd_x', 1001))).toThrow('refund_exceeds_charge');
    expect(() => when(given, refund(given, 'rfd_x', 101))).toThrow('insufficient_funds');
    expect(() => when(given, refund(given, 'rfd_x', 1, 'pi_other'))).toThrow('collection_not_credited');
  });

  it('the state does not grow with collections and refunds: 600 of each fold to the size of one', () => {
    const size = (log: readonly AccountEvent[]) => JSON.stringify({ ...log.reduce(accountDecider.evolve, opened()), current: 0, updated: 0 }).length; // the figures aside
    const log: AccountEvent[] = [];
    for (let i = 0; i < 600; i++) {
      log.push(...when(log, credit([], `pi_${i}`, 1000, 0)));
      log.push(...when(log, refund(log.filter((e) => e.type !== 'AccountOpened').slice(-1), `rfd_${i}`, 400, `pi_${i}`)));
      if (i === 0) expect(log).toHaveLength(2);
    }
    expect(size(log)).toBe(size(log.slice(0, 2)));
  });
});
