import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { accountDecider, balanceOf, type OpenAccountState } from '@app/domain/accounts';
import { transferDecider } from '@app/domain/transfers';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { WrongExpectedRevisionError } from '@app/platform/event-store/event-store.port';
import { DomainException, foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { aTransferIntent } from '../testing/transfer-intent';
import { openUsdAccount, TEST_CONTEXT } from '../testing/account-on-disk';
import { createTransfer, holdMoney } from './transfer-steps';
import { advanceTransfer, cancelTransfer } from './transfer-money';
import { transferStream } from './streams';

const ROUNDS = 50;

/**
 * Decisions §14 across processes: two stores on one SQLite file are two API replicas, each with its
 * own per-stream queue and fold cache, so nothing in a process orders a cancel on one and the
 * rail's move on the other. Only the append's expected revision does: exactly one lands each round,
 * the other re-reads and is refused, and the hold is released at most once.
 */
describe('a cancel and the move to processing on two replicas', () => {
  let dir: string;
  let a: SqliteEventStore;
  let b: SqliteEventStore;
  const ACC = `acc_${ulid()}`;
  const context = TEST_CONTEXT;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cancel-race-'));
    [a, b] = [new SqliteEventStore(join(dir, 'events.db'), 5), new SqliteEventStore(join(dir, 'events.db'), 5)];
    await openUsdAccount(a, ACC, 7, context);
    await handleCommand(
      a,
      accountStream(ACC),
      accountDecider,
      { type: 'FundAccount', account_id: ACC, transaction_id: 'txn_1', amount: 1_000_000, currency: 'USD', now: 2 },
      context,
    );
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const refused = (p: Promise<unknown>) =>
    p.then(
      () => 'won' as const,
      (e: unknown) => {
        if (e instanceof DomainException && e.error.kind === 'conflict') return 'refused' as const;
        throw e;
      },
    );

  it(`has exactly one winner each of ${ROUNDS} rounds, decided by the append's expected revision`, async () => {
    let conflicts = 0;
    for (const store of [a, b]) {
      const append = store.append.bind(store);
      jest.spyOn(store, 'append').mockImplementation(async (...args) => {
        try {
          return await append(...args);
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError) conflicts++;
          throw error;
        }
      });
    }
    let held = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const intent = aTransferIntent(ACC, 100 + i, `race-${i}`);
      await holdMoney(a, intent, context, 'fresh');
      await createTransfer(a, intent, context);
      // Both replicas have folded the pending transfer: each decides against the same revision.
      await Promise.all([a, b].map((store) => foldStream(store, transferStream(intent.id), transferDecider)));
      const [c, r] = await Promise.all([
        refused(cancelTransfer(a, intent.id, 'ent_1', null, context)),
        refused(advanceTransfer(b, intent.id, 'processing', null, context)),
      ]);
      expect([c, r].sort()).toEqual(['refused', 'won']);
      const types = (await a.readStream(transferStream(intent.id))).map((e) => e.type);
      expect(types).toEqual(['TransferCreated', c === 'won' ? 'TransferCancelled' : 'TransferProcessing']);
      const releases = (await a.readStream(accountStream(ACC))).filter(
        (e) => e.type === 'HoldReleased' && e.data.hold_id === intent.id,
      );
      expect(releases).toHaveLength(c === 'won' ? 1 : 0);
      if (r === 'won') held += intent.amount + intent.fee;
    }
    const { state } = await foldStream(a, accountStream(ACC), accountDecider);
    expect(balanceOf(state as OpenAccountState)).toEqual({ available: 1_000_000 - held, current: 1_000_000 });
    // Not a figure of speed: that the replicas did contend, so the revision (not a queue) decided.
    expect(conflicts).toBeGreaterThan(0);
  });
});
