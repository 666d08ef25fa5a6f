import fc from 'fast-check';
import { isDomainError } from '../../shared';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import {
  paymentIntentDecider,
  type PaymentIntentEvent,
  type PaymentIntentState,
} from '../../collections/payment-intent';
import { balanceOf, type AccountState } from './account';
import { accountDecider, type AccountCommand } from './account.decide';

const ACC = 'acc_01J00000000000000000000000';
const intents = ['pi_a', 'pi_b', 'pi_c', 'pi_d'];

const step = fc.oneof(
  fc.record({
    type: fc.constant('CreditCollection' as const),
    intent: fc.constantFrom(...intents),
    amount: fc.integer({ min: 1, max: 1_000_000 }),
    fee: fc.integer({ min: 0, max: 40_000 }),
  }),
  fc.record({
    type: fc.constant('RefundCollection' as const),
    intent: fc.constantFrom(...intents),
    refund: fc.integer({ min: 0, max: 30 }),
    amount: fc.integer({ min: 1, max: 800_000 }),
  }),
);

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

const landed = (log: readonly AccountEvent[], type: 'CollectionCredited' | 'CollectionRefunded', key: string) =>
  log.some(
    (e) => e.type === type && (e.type === 'CollectionCredited' ? e.data.payment_intent_id : e.data.refund_id) === key,
  );

/** Given these events, when the command: the events decided (a domain error throws). */
function when(given: readonly AccountEvent[], command: AccountCommand): AccountEvent[] {
  const decided = accountDecider.decide(command, given.reduce(accountDecider.evolve, opened()));
  if (isDomainError(decided)) throw Object.assign(new Error(decided.code), { code: decided.code });
  return [...decided];
}

/** As the caller builds them: whether the credit or debit landed, from the log since its step was decided (here: the whole log). */
const credit = (log: readonly AccountEvent[], intent = 'pi_a', amount = 1000, fee = 29): AccountCommand => ({
  type: 'CreditCollection',
  account_id: ACC,
  payment_intent_id: intent,
  amount,
  fee,
  currency: 'USD',
  now: 1,
  already_credited: landed(log, 'CollectionCredited', intent),
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
  already_refunded: landed(log, 'CollectionRefunded', id),
});

/** The intents and the account, each step decided by the aggregate that owns it, as the application runs them. */
class World {
  account: AccountState = opened();
  readonly log: AccountEvent[] = [];
  readonly intents = new Map<string, PaymentIntentState>();

  private intent(
    id: string,
    command: Parameters<typeof paymentIntentDecider.decide>[0],
  ): PaymentIntentEvent[] | string {
    const state = this.intents.get(id) ?? paymentIntentDecider.initialState;
    const decided = paymentIntentDecider.decide(command, state);
    if (isDomainError(decided)) return decided.code;
    this.intents.set(id, decided.reduce(paymentIntentDecider.evolve, state));
    return [...decided];
  }

  private onAccount(command: AccountCommand): AccountEvent[] | string {
    const decided = accountDecider.decide(command, this.account);
    if (isDomainError(decided)) return decided.code;
    for (const event of decided) {
      this.account = accountDecider.evolve(this.account, event);
      this.log.push(event);
    }
    return [...decided];
  }

  /** Settlement: the account is credited, then the intent completed (created and confirmed first). */
  complete(id: string, amount: number, fee: number): void {
    const intent = {
      id,
      currency: 'USD',
      amount,
      reference: id,
      description: null,
      entity_id: 'ent_1',
      account_id: ACC,
      created: 0,
    };
    this.intent(id, { type: 'CreatePaymentIntent', intent });
    this.intent(id, { type: 'ConfirmPaymentIntent', payment_intent_id: id, intent_action_id: `ia_${id}`, now: 0 });
    const credited = this.onAccount(credit(this.log, id, amount, Math.min(fee, amount)));
    if (typeof credited !== 'string')
      this.intent(id, { type: 'CompletePaymentIntent', payment_intent_id: id, intent_action_id: `ia_${id}`, now: 0 });
  }

  /** A refund: set aside on the intent, debited on the account, then recorded or freed. */
  refund(id: string, refundId: string, amount: number): string | null {
    const asked = this.intent(id, {
      type: 'RequestRefund',
      payment_intent_id: id,
      refund_id: refundId,
      amount,
      reason: null,
      account_revision: 0,
      now: 0,
    });
    if (typeof asked === 'string') return asked;
    const debited = this.onAccount(refund(this.log, refundId, amount, id));
    if (typeof debited === 'string') {
      this.intent(id, { type: 'FailRefund', payment_intent_id: id, refund_id: refundId, reason: debited, now: 0 });
      return debited;
    }
    const data = this.log.find((e) => e.type === 'CollectionRefunded' && e.data.refund_id === refundId)!.data as {
      amount: number;
      reason: null;
    };
    const record = {
      id: refundId,
      payment_intent_id: id,
      account_id: ACC,
      amount: data.amount,
      currency: 'USD',
      reason: data.reason,
      status: 'succeeded' as const,
      created: 0,
    };
    this.intent(id, { type: 'RecordRefund', payment_intent_id: id, refund: record, now: 0 });
    return null;
  }
}

describe('collections on the account stream (decisions §7)', () => {
  it('for any sequence of completions and refunds (retries included): balance = credits − refunds, no refund total above its charge, never below zero', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const world = new World();
        for (const s of steps) {
          if (s.type === 'CreditCollection') world.complete(s.intent, s.amount, s.fee);
          else {
            const refused = world.refund(s.intent, `rfd_${s.intent}_${s.refund}`, s.amount);
            if (refused)
              expect([
                'refund_exceeds_charge',
                'insufficient_funds',
                'invalid_state',
                'payment_intent_not_found',
              ]).toContain(refused);
          }
        }
        const charged = new Map<string, number>();
        const refunded = new Map<string, number>();
        for (const e of world.log) {
          if (e.type === 'CollectionCredited') {
            expect(charged.has(e.data.payment_intent_id)).toBe(false);
            charged.set(e.data.payment_intent_id, e.data.amount);
          }
          if (e.type === 'CollectionRefunded')
            refunded.set(e.data.payment_intent_id, (refunded.get(e.data.payment_intent_id) ?? 0) + e.data.amount);
        }
        const credits = world.log.reduce((n, e) => n + (e.type === 'CollectionCredited' ? e.data.net : 0), 0);
        const refunds = [...refunded.values()].reduce((a, b) => a + b, 0);
        if (world.account.status !== 'open') throw new Error('account closed');
        expect(balanceOf(world.account)).toEqual({ available: credits - refunds, current: credits - refunds });
        expect(credits - refunds).toBeGreaterThanOrEqual(0);
        for (const [intent, total] of refunded) expect(total).toBeLessThanOrEqual(charged.get(intent)!);
        // Nothing stays set aside: every refund ended recorded or freed.
        for (const state of world.intents.values()) if (state.status !== 'none') expect(state.requested).toEqual({});
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

  it('concurrent refunds never pass the charge: the intent sets each aside on its own stream, the second decided again after the first', () => {
    const world = new World();
    world.complete('pi_a', 1000, 0);
    world.complete('pi_b', 5000, 0);
    expect(world.refund('pi_a', 'rfd_1', 700)).toBeNull();
    expect(world.refund('pi_a', 'rfd_2', 700)).toBe('refund_exceeds_charge');
    expect(world.refund('pi_a', 'rfd_2', 300)).toBeNull();
  });

  it('a refund the balance cannot cover is refused by the account, and the intent frees it', () => {
    const world = new World();
    world.complete('pi_a', 1000, 900);
    expect(world.refund('pi_a', 'rfd_x', 101)).toBe('insufficient_funds');
    expect(world.intents.get('pi_a')).toMatchObject({ refunded: 0, requested: {} });
    expect(world.refund('pi_a', 'rfd_y', 100)).toBeNull();
  });

  it('the state does not grow with collections and refunds: 600 of each fold to the size of one', () => {
    const size = (log: readonly AccountEvent[]) =>
      JSON.stringify({ ...log.reduce(accountDecider.evolve, opened()), current: 0, updated: 0 }).length; // the figures aside
    const log: AccountEvent[] = [];
    for (let i = 0; i < 600; i++) {
      log.push(...when(log, credit([], `pi_${i}`, 1000, 0)));
      log.push(
        ...when(log, refund(log.filter((e) => e.type !== 'AccountOpened').slice(-1), `rfd_${i}`, 400, `pi_${i}`)),
      );
      if (i === 0) expect(log).toHaveLength(2);
    }
    expect(size(log)).toBe(size(log.slice(0, 2)));
  });
});
