import fc from 'fast-check';
import { isDomainError } from '../../shared';
import { newServiceBan } from '../account-numbers';
import { seededRandom } from '../testing/fixed-random';
import type { AccountEvent } from './account.events';
import { balanceOf, heldTotal, type AccountState } from './account';
import { accountDecider, type AccountCommand } from './account.decide';

const ACC = 'acc_01J00000000000000000000000';
const holdIds = ['trf_a', 'trf_b', 'trf_c', 'trf_d'];

const command = fc.oneof(
  fc.record({ type: fc.constant('FundAccount' as const), amount: fc.integer({ min: 1, max: 1_000_000 }) }),
  fc.record({ type: fc.constant('PlaceHold' as const), hold_id: fc.constantFrom(...holdIds), amount: fc.integer({ min: 1, max: 1_500_000 }), fee: fc.integer({ min: 0, max: 5_000 }) }),
  fc.record({ type: fc.constantFrom('ReleaseHold' as const, 'SettleHold' as const), hold_id: fc.constantFrom(...holdIds) }),
);

type Step = typeof command extends fc.Arbitrary<infer T> ? T : never;

function toCommand(step: Step, i: number): AccountCommand {
  const base = { account_id: ACC, now: 1_700_000_000_000 + i };
  if (step.type === 'FundAccount') return { ...base, type: 'FundAccount', transaction_id: `txn_${i}`, amount: step.amount, currency: 'USD' };
  if (step.type === 'PlaceHold') return { ...base, type: 'PlaceHold', hold_id: step.hold_id, amount: step.amount, fee: step.fee };
  return { ...base, type: step.type, hold_id: step.hold_id };
}

describe('account balance invariants', () => {
  it('never overdraws, never creates or loses money, and every balance_after matches the fold', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        const open = accountDecider.decide(
          { type: 'OpenAccount', account_id: ACC, entity: { id: 'ent_1', status: 'approved' }, mode: 'sandbox', account_type: 'checking', currency: 'USD', display_name: 'P', service_ban: newServiceBan(seededRandom(1)), now: 0 },
          accountDecider.initialState,
        ) as AccountEvent[];
        let state: AccountState = open.reduce(accountDecider.evolve, accountDecider.initialState);
        let credited = 0;
        let debited = 0;
        commands.forEach((c, i) => {
          const result = accountDecider.decide(toCommand(c, i), state);
          if (isDomainError(result)) {
            expect(result.code).toBe('insufficient_funds');
            return;
          }
          for (const event of result) {
            state = accountDecider.evolve(state, event);
            if (state.status !== 'open') throw new Error('account closed');
            if (event.type === 'AccountFunded') credited += event.data.amount;
            if (event.type === 'HoldSettled') debited += event.data.total;
            if ('balance_after' in event.data) expect(event.data.balance_after).toEqual(balanceOf(state));
          }
          if (state.status !== 'open') throw new Error('account closed');
          const { available, current } = balanceOf(state);
          expect(available).toBe(current - heldTotal(state));
          expect(available).toBeGreaterThanOrEqual(0);
          expect(current).toBe(credited - debited);
        });
      }),
      { numRuns: 300 },
    );
  });
});
