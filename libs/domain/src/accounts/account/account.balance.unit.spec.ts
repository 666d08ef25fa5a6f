import fc from 'fast-check';
import { isDomainError } from '../../shared';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { balanceOf, type AccountState } from './account';
import { accountDecider, type AccountCommand } from './account.decide';
import { bookTransferReceivedIn } from './account.money';

const ACC = 'acc_01J00000000000000000000000';
const holdIds = ['trf_a', 'trf_b', 'trf_c', 'trf_d', 'trf_e'];

const command = fc.oneof(
  fc.record({ type: fc.constant('FundAccount' as const), amount: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({
    type: fc.constant('ReceiveBookTransfer' as const),
    id: fc.constantFrom(...holdIds),
    amount: fc.integer({ min: 1, max: 500_000 }),
  }),
  fc.record({
    type: fc.constant('PlaceHold' as const),
    hold_id: fc.constantFrom(...holdIds),
    amount: fc.integer({ min: 1, max: 1_500_000 }),
    fee: fc.integer({ min: 0, max: 5_000 }),
  }),
  fc.record({
    type: fc.constantFrom('ReleaseHold' as const, 'SettleHold' as const, 'ReverseSettledHold' as const),
    hold_id: fc.constantFrom(...holdIds),
  }),
);

type Step = typeof command extends fc.Arbitrary<infer T> ? T : never;

const closedIn = (log: readonly AccountEvent[], holdId: string, type: AccountEvent['type']) =>
  log.some((e) => e.type === type && 'hold_id' in e.data && e.data.hold_id === holdId);
const heldTotalIn = (log: readonly AccountEvent[], holdId: string) =>
  log.reduce(
    (total, e) => (e.type === 'FundsHeld' && e.data.hold_id === holdId ? e.data.amount + e.data.fee : total),
    0,
  );

/**
 * What the application passes in (here read from the whole log; the application reads the movement's
 * own stream, or the account's log from where the movement was decided): a hold's origin has moved on
 * once the hold closed (a transfer is created after its hold, and closed after it is created); only
 * a successful transfer is reversed (an open hold is settled first, as the transfer's money step
 * does), with the total its transfer held and whether the log holds its credit back already.
 */
function toCommand(step: Step, i: number, log: readonly AccountEvent[]): AccountCommand {
  const base = { account_id: ACC, now: 1_700_000_000_000 + i };
  switch (step.type) {
    case 'FundAccount':
      return { ...base, type: 'FundAccount', transaction_id: `txn_${i}`, amount: step.amount, currency: 'USD' };
    case 'ReceiveBookTransfer':
      return {
        ...base,
        type: 'ReceiveBookTransfer',
        transfer_id: `in_${step.id}`,
        from_account_id: 'acc_other',
        amount: step.amount,
        currency: 'USD',
        already_received: bookTransferReceivedIn(log, `in_${step.id}`),
      };
    case 'PlaceHold':
      return {
        ...base,
        type: 'PlaceHold',
        hold_id: step.hold_id,
        amount: step.amount,
        fee: step.fee,
        origin_done: closedIn(log, step.hold_id, 'HoldReleased') || closedIn(log, step.hold_id, 'HoldSettled'),
      };
    case 'ReverseSettledHold': {
      if (closedIn(log, step.hold_id, 'HoldSettled')) {
        return {
          ...base,
          type: step.type,
          hold_id: step.hold_id,
          total: heldTotalIn(log, step.hold_id),
          already_reversed: closedIn(log, step.hold_id, 'HoldReversed'),
        };
      }
      return {
        ...base,
        type: closedIn(log, step.hold_id, 'HoldReleased') ? 'ReleaseHold' : 'SettleHold',
        hold_id: step.hold_id,
      };
    }
    default:
      return { ...base, type: step.type, hold_id: step.hold_id };
  }
}

/**
 * An independent model of the ledger, written from the rules rather than from the decider:
 * each hold id lives once (open → settled → reversed, or open → released), each incoming book
 * transfer is credited once, and a hold needs available funds.
 */
class Ledger {
  credited = 0;
  debited = 0;
  readonly open = new Map<string, number>();
  readonly closed = new Map<string, { total: number; outcome: string }>();
  readonly received = new Set<string>();

  get openTotal() {
    return [...this.open.values()].reduce((a, b) => a + b, 0);
  }
  get current() {
    return this.credited - this.debited;
  }

  /** What the model expects: 'error' for a refusal, else the change it makes. */
  apply(c: AccountCommand): 'error' | 'noop' | 'moved' {
    switch (c.type) {
      case 'FundAccount':
        this.credited += c.amount;
        return 'moved';
      case 'ReceiveBookTransfer':
        if (this.received.has(c.transfer_id)) return 'noop';
        this.received.add(c.transfer_id);
        this.credited += c.amount;
        return 'moved';
      case 'PlaceHold': {
        if (this.open.has(c.hold_id) || this.closed.has(c.hold_id)) return 'noop';
        const total = c.amount + c.fee;
        if (total > this.current - this.openTotal) return 'error';
        this.open.set(c.hold_id, total);
        return 'moved';
      }
      case 'ReleaseHold':
      case 'SettleHold': {
        const total = this.open.get(c.hold_id);
        if (total === undefined) return 'noop';
        this.open.delete(c.hold_id);
        this.closed.set(c.hold_id, { total, outcome: c.type === 'SettleHold' ? 'settled' : 'released' });
        if (c.type === 'SettleHold') this.debited += total;
        return 'moved';
      }
      case 'ReverseSettledHold': {
        const closed = this.closed.get(c.hold_id);
        if (closed?.outcome === 'reversed') return 'noop';
        if (closed?.outcome !== 'settled') throw new Error('the transfer lifecycle reverses only what was settled');
        this.closed.set(c.hold_id, { ...closed, outcome: 'reversed' });
        this.debited -= closed.total;
        return 'moved';
      }
      default:
        throw new Error(`not generated: ${c.type}`);
    }
  }
}

describe('account balance invariants', () => {
  it('for any funding, hold, settle, release and reversal sequence: never below zero, current − available = open holds, nothing created or lost, and each state equals a fold from scratch', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), (steps) => {
        const open = accountDecider.decide(
          {
            type: 'OpenAccount',
            account_id: ACC,
            entity: { id: 'ent_1', status: 'approved' },
            mode: 'sandbox',
            account_type: 'checking',
            currency: 'USD',
            display_name: 'P',
            service_ban: newServiceBan(seededRandom(1)),
            now: 0,
          },
          accountDecider.initialState,
        ) as AccountEvent[];
        let state: AccountState = open.reduce(accountDecider.evolve, accountDecider.initialState);
        const log: AccountEvent[] = [...open];
        const ledger = new Ledger();
        steps.forEach((step, i) => {
          const c = toCommand(step, i, log);
          const expected = ledger.apply(c);
          const result = accountDecider.decide(c, state);
          if (isDomainError(result)) {
            expect(expected).toBe('error');
            expect(['insufficient_funds', 'hold_not_settled']).toContain(result.code);
            return;
          }
          expect(result.length > 0 ? 'moved' : 'noop').toBe(expected);
          for (const event of result) {
            log.push(event);
            state = accountDecider.evolve(state, event);
            if (state.status !== 'open') throw new Error('account closed');
            if ('balance_after' in event.data) expect(event.data.balance_after).toEqual(balanceOf(state));
          }
          if (state.status !== 'open') throw new Error('account closed');
          const { available, current } = balanceOf(state);
          expect(available).toBeGreaterThanOrEqual(0);
          expect(current - available).toBe(ledger.openTotal);
          expect(current).toBe(ledger.current);
          // The running totals and the persistent map kept event by event are what a fold from scratch (or a snapshot's) gives.
          expect(state).toEqual(log.reduce(accountDecider.evolve, accountDecider.initialState));
          expect(state.held).toBe(ledger.openTotal);
        });
      }),
      { numRuns: 400 },
    );
  });
});
