import { ulid } from 'ulid';
import { accountDecider, balanceOf, type OpenAccountState } from '@app/domain/accounts';
import { transferDecider, type TransferEvent, type TransferIntent } from '@app/domain/transfers';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { accountLogReader } from '../accounts/account-log-reader';
import { createTransfer, finishTransfer, holdMoney } from './transfer-steps';
import { transferReferenceDecider } from '@app/domain/transfers';
import { transferReferenceStream } from './streams';
import { advanceTransfer, applyMoney } from './transfer-money';
import { transferStream } from './streams';
import { aTransferIntent } from '../testing/transfer-intent';
import { openUsdAccount, storeOnDisk, TEST_CONTEXT } from '../testing/account-on-disk';
import { anotherProcess } from '../testing/another-process';

/**
 * The account state forgets closed holds; a repeated hold is answered by the transfer stream and a
 * repeated reversal by the account's log since the reversal was decided (never from its start). Every rerun a process manager or a retried request makes,
 * staged on a real store: the money moves once.
 */
describe('hold idempotency from the hold origin', () => {
  let store: SqliteEventStore;
  let dispose: () => Promise<void>;
  const context = TEST_CONTEXT;
  const ACC = `acc_${ulid()}`;

  beforeEach(async () => {
    ({ store, dispose } = storeOnDisk('hold-origin-'));
    await openUsdAccount(store, ACC, 3, context);
    await fund(10_000, 'txn_1');
  });
  afterEach(async () => {
    await dispose();
  });

  const fund = (amount: number, transaction_id: string) =>
    handleCommand(
      store,
      accountStream(ACC),
      accountDecider,
      { type: 'FundAccount', account_id: ACC, transaction_id, amount, currency: 'USD', now: 2 },
      context,
    );
  const intent = (amount: number): TransferIntent => aTransferIntent(ACC, amount);
  const balance = async () =>
    balanceOf((await foldStream(store, accountStream(ACC), accountDecider)).state as OpenAccountState);
  const heldCount = async (id: string) =>
    (await store.readStream(accountStream(ACC))).filter((e) => e.type === 'FundsHeld' && e.data.hold_id === id).length;
  const last = async (id: string) => (await store.readStream(transferStream(id))).at(-1) as unknown as TransferEvent;
  /** What a request does: hold (the money decision), create. */
  const create = async (i: TransferIntent) => {
    expect((await holdMoney(store, i, context, 'fresh')).id).toBe(i.id);
    return createTransfer(store, i, context);
  };
  const succeed = async (i: TransferIntent) => {
    await create(i);
    await advanceTransfer(store, i.id, 'processing', null, context);
    await advanceTransfer(store, i.id, 'successful', null, context);
  };

  it('settled, then finished again (a duplicate request, the recovery process manager): nothing is held again', async () => {
    const i = intent(1_000);
    await succeed(i);
    expect(await finishTransfer(store, i, context)).toMatchObject({ id: i.id, status: 'successful' });
    expect(await balance()).toEqual({ available: 8_990, current: 8_990 });
    expect(await heldCount(i.id)).toBe(1);
  });

  it('failed (released), then finished again: nothing is held again', async () => {
    const i = intent(1_000);
    await create(i);
    await advanceTransfer(store, i.id, 'failed', null, context);
    await finishTransfer(store, i, context);
    expect(await balance()).toEqual({ available: 10_000, current: 10_000 });
    expect(await heldCount(i.id)).toBe(1);
  });

  it('refused for lack of funds: nothing is written anywhere; once funded, the same transfer is held and created', async () => {
    const i = intent(20_000);
    await expect(holdMoney(store, i, context, 'fresh')).rejects.toMatchObject({
      error: { code: 'insufficient_funds' },
    });
    expect(await store.readStream(transferStream(i.id))).toEqual([]);
    expect(await heldCount(i.id)).toBe(0);
    await fund(20_000, 'txn_2');
    await create(i);
    expect(await balance()).toEqual({ available: 9_990, current: 30_000 });
    expect(await heldCount(i.id)).toBe(1);
  });

  it("a driver finishing an older log's reservation, that folded the account before the hold and read the transfer stream while another held, created and settled it, retries and holds nothing", async () => {
    // A reservation without a hold, as an older version left it when its request died.
    const i = { ...intent(1_000), id: `trf_${ulid()}` };
    await handleCommand(
      store,
      transferReferenceStream(ACC, i.unique_reference),
      transferReferenceDecider,
      { type: 'ReserveTransferReference', intent: i, now: 3 },
      context,
    );
    // The late driver's store: its read of the transfer stream for the hold's origin answers "empty"
    // (the second read: the first checks whether the transfer exists), and meanwhile another driver
    // (its own store handle, so its own per-process queue) holds, creates and settles.
    let reads = 0;
    let raced = false;
    const readStream = async (streamId: string, options?: { fromRevision?: number }) => {
      const events = await store.readStream(streamId, options);
      if (streamId !== transferStream(i.id) || ++reads !== 2) return events;
      raced = true;
      await succeed(i);
      return events;
    };
    const late = anotherProcess(store, readStream);
    expect(await finishTransfer(late, i, context)).toMatchObject({ id: i.id });
    expect(raced).toBe(true);
    expect(await balance()).toEqual({ available: 8_990, current: 8_990 });
    expect(await heldCount(i.id)).toBe(1);
  });

  it('reversed: the request and the process manager both apply it, concurrently and again later; credited once', async () => {
    const i = intent(1_000);
    await succeed(i);
    await advanceTransfer(store, i.id, 'reversed', 'returned_by_bank', context);
    const reversed = await last(i.id);
    await Promise.all([applyMoney(store, reversed, context), applyMoney(store, reversed, context)]);
    await applyMoney(store, reversed, context);
    expect(await balance()).toEqual({ available: 10_000, current: 10_000 });
    expect((await store.readStream(accountStream(ACC))).filter((e) => e.type === 'HoldReversed')).toHaveLength(1);
  });

  it('a reversal that read the log while another reversal landed retries, reads on, and credits nothing', async () => {
    const i = intent(1_000);
    await succeed(i);
    const { revision } = await foldStream(store, accountStream(ACC), accountDecider);
    await handleCommand(
      store,
      transferStream(i.id),
      transferDecider,
      { type: 'AdvanceTransfer', transfer_id: i.id, to: 'reversed', account_revision: revision, now: 6 },
      context,
    );
    const reversed = await last(i.id);
    let armed = false;
    let raced = false;
    const readStream = async (streamId: string, options?: { fromRevision?: number }) => {
      const events = await store.readStream(streamId, options);
      if (!armed || raced) return events;
      raced = true;
      await applyMoney(store, reversed, context);
      return events;
    };
    const late = anotherProcess(store, readStream);
    const landed = accountLogReader(
      late,
      ACC,
      revision + 1,
      (e) => e.type === 'HoldReversed' && e.data.hold_id === i.id,
    );
    const reverse = async () => {
      armed = true;
      return {
        type: 'ReverseSettledHold' as const,
        account_id: ACC,
        hold_id: i.id,
        total: 1_010,
        already_reversed: await landed(),
        now: 7,
      };
    };
    expect((await handleCommand(late, accountStream(ACC), accountDecider, reverse, context)).newEvents).toEqual([]);
    expect(raced).toBe(true);
    expect(await balance()).toEqual({ available: 10_000, current: 10_000 });
  });

  it('a reversal reads the account from where it was decided, however long the account history before it', async () => {
    const i = intent(1_000);
    await succeed(i);
    for (let n = 0; n < 60; n++) await fund(1, `txn_more_${n}`);
    await advanceTransfer(store, i.id, 'reversed', 'returned_by_bank', context);
    const reversed = await last(i.id);
    expect(reversed).toMatchObject({ type: 'TransferReversed', data: { account_revision: expect.any(Number) } });
    // The process manager applies it again later: what it reads of the account log is what came since.
    const fromRevisions: number[] = [];
    const counting = new Proxy(store, {
      get: (target, key) =>
        key === 'readStream'
          ? (streamId: string, options?: { fromRevision?: number }) => {
              if (streamId === accountStream(ACC)) fromRevisions.push(options?.fromRevision ?? 0);
              return store.readStream(streamId, options);
            }
          : (Reflect.get(target, key) as unknown),
    }) as EventStore;
    // This store handle's fold cache is warm, as a running process's is: reads after it are the command's own.
    await foldStream(counting, accountStream(ACC), accountDecider);
    fromRevisions.length = 0;
    await applyMoney(counting, reversed, context);
    expect(Math.min(...fromRevisions)).toBeGreaterThan(60);
    expect(await balance()).toEqual({ available: 10_060, current: 10_060 });
    expect((await store.readStream(accountStream(ACC))).filter((e) => e.type === 'HoldReversed')).toHaveLength(1);
  });

  it('reversed before its success was ever applied (crash): settled then credited back, once', async () => {
    const i = intent(1_000);
    await create(i);
    // The transfer moves without its money steps, as if each request died right after its append.
    for (const to of ['processing', 'successful', 'reversed'] as const) {
      await handleCommand(
        store,
        transferStream(i.id),
        transferDecider,
        { type: 'AdvanceTransfer', transfer_id: i.id, to, now: 6 },
        context,
      );
    }
    const reversed = await last(i.id);
    await applyMoney(store, reversed, context);
    await applyMoney(store, reversed, context);
    expect(await balance()).toEqual({ available: 10_000, current: 10_000 });
    const types = (await store.readStream(accountStream(ACC))).map((e) => e.type);
    expect(types.filter((t) => t === 'HoldSettled' || t === 'HoldReversed')).toEqual(['HoldSettled', 'HoldReversed']);
  });
});
