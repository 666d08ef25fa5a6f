import fc from 'fast-check';
import { ulid } from 'ulid';
import { accountDecider, type AccountEvent } from '@app/domain/accounts';
import { isTransfer, type TransferEvent, type TransferIntent } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { createTransfer, holdMoney, transferOf } from './transfer-steps';
import { advanceIfAllowed, applyMoney } from './transfer-money';
import { transferStream } from './streams';
import { aTransferIntent } from '../testing/transfer-intent';
import { openUsdAccount, storeOnDisk, TEST_CONTEXT } from '../testing/account-on-disk';
import { anotherProcess } from '../testing/another-process';

type Op =
  | { readonly kind: 'fund'; readonly amount: number }
  | { readonly kind: 'payout'; readonly amount: number }
  | { readonly kind: 'succeed' | 'fail' | 'reverse' | 'repeat'; readonly pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('fund' as const), amount: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('payout' as const), amount: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({
    kind: fc.constantFrom('succeed' as const, 'fail' as const, 'reverse' as const, 'repeat' as const),
    pick: fc.nat(),
  }),
);

/** Events a command read of one account's stream, counted through a wrapper around the real store. */
class ReadCounter {
  read = 0;
  readonly store: EventStore;

  constructor(inner: EventStore, accountId: string) {
    const readStream = async (streamId: string, options?: { fromRevision?: number }) => {
      const events = await inner.readStream(streamId, options);
      if (streamId === accountStream(accountId)) this.read += events.length;
      return events;
    };
    // Its own process: its own fold cache, cold at first.
    this.store = anotherProcess(inner, readStream);
  }
}

/**
 * Issue 26: a decision reads a bounded number of events whatever the history. After an account
 * history of hundreds of settled payouts, any sequence of fundings, payouts, successes, failures,
 * reversals and repeats (a process manager applying a move's money again) reads a few events of
 * the account's stream per step, and the state kept event by event is the fold from scratch.
 */
describe('money commands read a bounded number of events, whatever the history', () => {
  const HISTORY = 150;
  const BOUND = 12;

  it(`after ${HISTORY} settled payouts, each step of a random sequence reads at most ${BOUND} events of the account`, async () => {
    const { store, dispose } = storeOnDisk('bounded-reads-');
    try {
      const ACC = `acc_${ulid()}`;
      await openUsdAccount(store, ACC, 5);
      const counter = new ReadCounter(store, ACC);
      const s = counter.store;
      const transfers: TransferIntent[] = [];
      let n = 0;
      const fund = (amount: number) =>
        handleCommand(
          s,
          accountStream(ACC),
          accountDecider,
          { type: 'FundAccount', account_id: ACC, transaction_id: `txn_${++n}`, amount, currency: 'USD', now: 2 },
          TEST_CONTEXT,
        );
      const payout = async (amount: number) => {
        const intent = aTransferIntent(ACC, amount, `ref-${++n}`);
        try {
          await holdMoney(s, intent, TEST_CONTEXT, 'fresh');
        } catch {
          return; // insufficient funds: nothing written
        }
        await createTransfer(s, intent, TEST_CONTEXT);
        transfers.push(intent);
      };
      // Steps pick among the latest transfers, so they meet pending, successful and reversed ones alike.
      const picked = (pick: number) =>
        transfers[transfers.length - 1 - (pick % Math.min(4, Math.max(transfers.length, 1)))];
      const move = async (pick: number, to: 'processing' | 'successful' | 'failed' | 'reversed') => {
        const t = picked(pick);
        if (!t) return;
        if (to === 'successful' || to === 'reversed') await advanceIfAllowed(s, t.id, 'processing', TEST_CONTEXT);
        if (to === 'reversed') await advanceIfAllowed(s, t.id, 'successful', TEST_CONTEXT);
        await advanceIfAllowed(s, t.id, to, TEST_CONTEXT);
      };
      const repeat = async (pick: number) => {
        const t = picked(pick);
        const last =
          t && ((await store.readStream(transferStream(t.id))).at(-1) as unknown as TransferEvent | undefined);
        if (last) await applyMoney(s, last, TEST_CONTEXT);
      };
      const run = (o: Op) => {
        if (o.kind === 'fund') return fund(o.amount);
        if (o.kind === 'payout') return payout(o.amount);
        if (o.kind === 'repeat') return repeat(o.pick);
        return move(o.pick, o.kind === 'succeed' ? 'successful' : o.kind === 'fail' ? 'failed' : 'reversed');
      };

      await fund(10_000_000);
      for (let i = 0; i < HISTORY; i++) {
        await payout(1_000);
        await move(0, 'successful');
      }
      const history = (await store.readStream(accountStream(ACC))).length;
      expect(history).toBeGreaterThan(2 * HISTORY);

      let most = 0;
      const step = async (o: Op) => {
        counter.read = 0;
        await run(o);
        most = Math.max(most, counter.read);
        expect(counter.read).toBeLessThanOrEqual(BOUND);
        const { state } = await foldStream(s, accountStream(ACC), accountDecider);
        const scratch = (await store.readStream(accountStream(ACC)))
          .map((e) => e as unknown as AccountEvent)
          .reduce(accountDecider.evolve, accountDecider.initialState);
        expect(state).toEqual(scratch);
      };
      // Every kind of step once, in a fixed order, then random sequences.
      const fixed: Op[] = [
        { kind: 'payout', amount: 500 },
        { kind: 'fail', pick: 0 },
        { kind: 'repeat', pick: 0 },
        { kind: 'payout', amount: 700 },
        { kind: 'reverse', pick: 0 },
        { kind: 'repeat', pick: 0 },
        { kind: 'payout', amount: 900 },
        { kind: 'succeed', pick: 0 },
        { kind: 'repeat', pick: 0 },
        { kind: 'payout', amount: 300 },
        { kind: 'fund', amount: 1_000 },
      ];
      for (const o of fixed) await step(o);
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          for (const o of ops) await step(o);
        }),
        { numRuns: 12 },
      );
      // The steps reached every status, so the bound was met by every kind of step.
      const statuses = new Set(
        await Promise.all(
          transfers.map(async (t) =>
            ((state) => (isTransfer(state) ? state.status : 'none'))(await transferOf(store, t.id)),
          ),
        ),
      );
      expect([...statuses]).toEqual(expect.arrayContaining(['successful', 'failed', 'reversed', 'pending']));
      // The counter sees what a fold reads: a cold one (another store handle, its own cache) reads the whole history.
      const cold = new ReadCounter(store, ACC);
      await foldStream(cold.store, accountStream(ACC), accountDecider);
      expect(cold.read).toBeGreaterThan(2 * HISTORY);
      expect(most).toBeLessThanOrEqual(BOUND);
    } finally {
      await dispose();
    }
  }, 120_000);
});
