import { ulid } from 'ulid';
import { accountDecider, balanceOf, type OpenAccountState } from '@app/domain/accounts';
import { transferDecider, transferReferenceDecider, type TransferIntent } from '@app/domain/transfers';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { foldStream, handleCommand } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { transferReferenceStream, transferStream } from './streams';
import { transferRecoveryManager } from './transfer-recovery.process-manager';
import { transferMoneyManager } from './transfer-money.process-manager';
import { createTransfer, holdMoney, transferById } from './transfer-steps';
import { migrateLegacyReferences } from './legacy-migration';
import { transferStreamFor } from './streams';
import { MemoryCheckpoints } from '../testing/memory-checkpoints';
import { commandBusFor } from '../testing/command-bus';
import { aTransferIntent } from '../testing/transfer-intent';
import { ApplyTransferMoneyHandler } from './apply-transfer-money/apply-transfer-money.handler';
import { RecoverTransferReservationHandler } from './recover-transfer-reservation/recover-transfer-reservation.handler';
import type { CommandBus } from '@nestjs/cqrs';
import { openUsdAccount, storeOnDisk, TEST_CONTEXT } from '../testing/account-on-disk';

/** Each crash window of docs/decisions/transfers.md, staged on a real store, then recovered. */
describe('transfer creation crash windows', () => {
  let store: SqliteEventStore;
  let dispose: () => Promise<void>;
  const context = TEST_CONTEXT;
  const ACC = `acc_${ulid()}`;
  let bus: { commands: CommandBus; close(): Promise<void> };
  const recovery = () => transferRecoveryManager(store, bus.commands, 0);
  const signal = new AbortController().signal;

  beforeEach(async () => {
    ({ store, dispose } = storeOnDisk('transfer-recovery-'));
    bus = await commandBusFor(store, [RecoverTransferReservationHandler, ApplyTransferMoneyHandler]);
    await openUsdAccount(store, ACC, 3, context);
    await handleCommand(
      store,
      accountStream(ACC),
      accountDecider,
      { type: 'FundAccount', account_id: ACC, transaction_id: 'txn_1', amount: 10_000, currency: 'USD', now: 2 },
      context,
    );
  });
  afterEach(async () => {
    await bus.close();
    await dispose();
  });

  const intent = (amount: number, ref = 'ref-1'): TransferIntent => aTransferIntent(ACC, amount, ref);
  /** An older version's transfer: a plain ULID id, its own stream, bound to its reference by a reservation. */
  const legacyIntent = (amount: number, ref = 'ref-1'): TransferIntent => ({
    ...intent(amount, ref),
    id: `trf_${ulid()}`,
  });
  const reserve = async (i: TransferIntent) => {
    await handleCommand(
      store,
      transferReferenceStream(ACC, i.unique_reference),
      transferReferenceDecider,
      { type: 'ReserveTransferReference', intent: i, now: Date.now() },
      context,
    );
    return (await store.readStream(transferReferenceStream(ACC, i.unique_reference))).at(-1)!;
  };
  const hold = (i: TransferIntent) =>
    handleCommand(
      store,
      accountStream(ACC),
      accountDecider,
      { type: 'PlaceHold', account_id: ACC, hold_id: i.id, amount: i.amount, fee: i.fee, origin_done: false, now: 3 },
      context,
    );
  const account = async () => (await foldStream(store, accountStream(ACC), accountDecider)).state as OpenAccountState;
  const transfer = async (i: TransferIntent) => (await foldStream(store, transferStream(i.id), transferDecider)).state;
  const reference = async (i: TransferIntent) =>
    (await foldStream(store, transferReferenceStream(ACC, i.unique_reference), transferReferenceDecider)).state;

  const heldEvent = async (i: TransferIntent) =>
    (await store.readStream(accountStream(ACC))).find((e) => e.type === 'FundsHeld' && e.data.hold_id === i.id)!;
  const voided = async (i: TransferIntent) => {
    await handleCommand(
      store,
      transferStream(i.id),
      transferDecider,
      { type: 'VoidTransfer', transfer_id: i.id, account_id: ACC, reason: 'insufficient_funds', now: 4 },
      context,
    );
    return (await store.readStream(transferStream(i.id))).at(-1)!;
  };

  describe('a request that died after its hold (the hold carries the transfer)', () => {
    it('nothing after the hold: recovery creates the transfer, without holding twice; running again changes nothing', async () => {
      const i = intent(1_000);
      await holdMoney(store, i, context, 'fresh');
      await recovery().handle(await heldEvent(i), signal);
      await recovery().handle(await heldEvent(i), signal);
      expect(await transfer(i)).toMatchObject({ status: 'pending', transfer: { id: i.id, amount: 1_000 } });
      expect((await store.readStream(transferStream(i.id))).map((e) => e.type)).toEqual(['TransferCreated']);
      expect(balanceOf(await account())).toEqual({ available: 8_990, current: 10_000 });
    });

    it('its reference taken by another transfer meanwhile: recovery gives the hold back and creates nothing', async () => {
      const i = intent(1_000);
      const other = intent(2_000);
      expect(transferStream(other.id)).toBe(transferStream(i.id));
      await holdMoney(store, i, context, 'fresh');
      await createTransfer(store, other, context);
      await recovery().handle(await heldEvent(i), signal);
      expect(await transferById(store, i.id)).toBeNull();
      expect(await transfer(i)).toMatchObject({ transfer: { id: other.id } });
      expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
    });

    it('a finished creation, and a card hold (no transfer): recovery neither waits nor writes', async () => {
      const i = intent(1_000);
      await holdMoney(store, i, context, 'fresh');
      await createTransfer(store, i, context);
      const card = {
        type: 'PlaceHold' as const,
        account_id: ACC,
        hold_id: 'ctxn_1',
        amount: 500,
        fee: 0,
        origin_done: false,
        now: 5,
      };
      await handleCommand(store, accountStream(ACC), accountDecider, card, context);
      const head = (await store.readStream(accountStream(ACC))).length;
      const patient = transferRecoveryManager(store, bus.commands, 3_600_000);
      await patient.handle(await heldEvent(i), signal);
      await patient.handle((await store.readStream(accountStream(ACC))).at(-1)!, signal);
      expect((await store.readStream(accountStream(ACC))).length).toBe(head);
    });
  });

  describe('reservations an older version wrote before holding', () => {
    it('reservation written, nothing else: recovery holds and creates the transfer', async () => {
      const i = legacyIntent(1_000);
      await recovery().handle(await reserve(i), signal);
      expect(await transfer(i)).toMatchObject({ status: 'pending', transfer: { id: i.id, amount: 1_000 } });
      expect(balanceOf(await account())).toEqual({ available: 8_990, current: 10_000 });
    });

    it('hold placed, transfer not recorded: recovery records it without holding twice; running again changes nothing', async () => {
      const i = legacyIntent(1_000);
      const reserved = await reserve(i);
      await hold(i);
      await recovery().handle(reserved, signal);
      await recovery().handle(reserved, signal);
      expect((await store.readStream(transferStream(i.id))).map((e) => e.type)).toEqual(['TransferCreated']);
      expect(balanceOf(await account())).toEqual({ available: 8_990, current: 10_000 });
    });

    it('funds gone meanwhile: nothing is written, and the reservation waits for a retry after funding', async () => {
      const i = legacyIntent(20_000);
      await recovery().handle(await reserve(i), signal);
      expect((await transfer(i)).status).toBe('none');
      expect(await reference(i)).toMatchObject({ status: 'reserved', transfer_id: i.id });
      expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
    });

    it('voided while a racer held it, then crashed before freeing the reference: the hold is given back, and the next request takes the reference', async () => {
      const old = legacyIntent(1_000);
      const reserved = await reserve(old);
      await hold(old);
      const voidedEvent = await voided(old);
      await recovery().handle(reserved, signal);
      await transferMoneyManager(store, bus.commands, 0).handle(voidedEvent, signal);
      expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
      // Nothing is bound to the reference: the migration moves nothing, and the next request creates its own.
      expect(await migrateLegacyReferences(store)).toBe(0);
      expect(await store.readStream(transferStreamFor(ACC, old.unique_reference))).toEqual([]);
    });

    it('migrated once: each reference moves to its keyed stream (an unfinished one finished first), a new transfer of it finds the older one, and a second start reads only what came since', async () => {
      const done = legacyIntent(1_000, 'ref-done');
      await reserve(done);
      await hold(done);
      await createTransfer(store, done, context); // a legacy id: the transfer in its own stream
      const dead = legacyIntent(2_000, 'ref-dead');
      await reserve(dead); // its request died before holding
      const checkpoints = new MemoryCheckpoints();
      expect(await migrateLegacyReferences(store, checkpoints)).toBe(2);
      expect(await transfer(dead)).toMatchObject({ status: 'pending', transfer: { id: dead.id } });
      for (const i of [done, dead]) {
        expect((await store.readStream(transferStreamFor(ACC, i.unique_reference))).map((e) => e.type)).toEqual([
          'TransferReferenceMigrated',
        ]);
        // A new request of the reference: its creation finds the older transfer (and gives its own hold back).
        expect(await createTransfer(store, intent(10, i.unique_reference), context)).toMatchObject({ id: i.id });
      }
      const read = checkpoints.position;
      expect(read).toBeGreaterThan(0);
      expect(await migrateLegacyReferences(store, checkpoints)).toBe(0);
      expect(await migrateLegacyReferences(store)).toBe(0);
    });
  });

  it('transfer succeeded but the money step crashed: re-running it settles exactly once', async () => {
    const i = intent(1_000);
    await holdMoney(store, i, context, 'fresh');
    await createTransfer(store, i, context);
    for (const to of ['processing', 'successful'] as const) {
      await handleCommand(
        store,
        transferStream(i.id),
        transferDecider,
        { type: 'AdvanceTransfer', transfer_id: i.id, to, now: 6 },
        context,
      );
    }
    const succeeded = (await store.readStream(transferStream(i.id))).at(-1)!;
    const money = transferMoneyManager(store, bus.commands, 0);
    await money.handle(succeeded, signal);
    await money.handle(succeeded, signal);
    expect(balanceOf(await account())).toEqual({ available: 8_990, current: 8_990 });
  });

  it('a move whose money the request already applied: the money manager neither waits nor appends', async () => {
    const i = intent(1_000);
    await holdMoney(store, i, context, 'fresh');
    await createTransfer(store, i, context);
    for (const to of ['processing', 'successful'] as const) {
      await handleCommand(
        store,
        transferStream(i.id),
        transferDecider,
        { type: 'AdvanceTransfer', transfer_id: i.id, to, now: 6 },
        context,
      );
    }
    await handleCommand(
      store,
      accountStream(ACC),
      accountDecider,
      { type: 'SettleHold', account_id: ACC, hold_id: i.id, now: 7 },
      context,
    );
    const succeeded = (await store.readStream(transferStream(i.id))).at(-1)!;
    const head = (await store.readStream(accountStream(ACC))).length;
    // An hour's grace: were it waiting for the deadline, this would not resolve within the test's timeout.
    await transferMoneyManager(store, bus.commands, 3_600_000).handle(succeeded, signal);
    expect((await store.readStream(accountStream(ACC))).length).toBe(head);
    expect(balanceOf(await account())).toEqual({ available: 8_990, current: 8_990 });
  });
});
