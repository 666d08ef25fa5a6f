import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { accountDecider, balanceOf, newServiceBan, type OpenAccountState } from '@app/domain/accounts';
import { fold } from '@app/domain';
import { transferDecider, transferReferenceDecider, type TransferIntent } from '@app/domain/transfers';
import { seededRandom } from '@app/domain/accounts/testing/fixed-random';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { handleCommand, systemActor, type CommandContext } from '../command-handling';
import { accountStream } from '../accounts/streams';
import { transferReferenceStream, transferStream } from './streams';
import { transferRecoveryManager } from './transfer-recovery.process-manager';
import { transferMoneyManager } from './transfer-money.process-manager';
import { commandBusFor } from '../testing/command-bus';
import { aTransferIntent } from '../testing/transfer-intent';
import { ApplyTransferMoneyHandler } from './apply-transfer-money/apply-transfer-money.handler';
import { RecoverTransferReservationHandler } from './recover-transfer-reservation/recover-transfer-reservation.handler';
import type { CommandBus } from '@nestjs/cqrs';

/** Each crash window of docs/decisions/transfers.md, staged on a real store, then recovered. */
describe('transfer creation crash windows', () => {
  let dir: string;
  let store: SqliteEventStore;
  const context: CommandContext = { actor: systemActor('org_test', 'test', 'sandbox'), correlationId: 'c', causationId: 'c' };
  const ACC = `acc_${ulid()}`;
  let bus: { commands: CommandBus; close(): Promise<void> };
  const recovery = () => transferRecoveryManager(store, bus.commands, 0);
  const signal = new AbortController().signal;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'transfer-recovery-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    bus = await commandBusFor(store, [RecoverTransferReservationHandler, ApplyTransferMoneyHandler]);
    const open = {
      type: 'OpenAccount' as const,
      account_id: ACC,
      entity: { id: 'ent_1', status: 'approved' },
      mode: 'sandbox' as const,
      account_type: 'checking',
      currency: 'USD',
      display_name: 'Ops',
      service_ban: newServiceBan(seededRandom(3)),
      now: 1,
    };
    await handleCommand(store, accountStream(ACC), accountDecider, open, context, { entityId: 'ent_1' });
    await handleCommand(store, accountStream(ACC), accountDecider, { type: 'FundAccount', account_id: ACC, transaction_id: 'txn_1', amount: 10_000, currency: 'USD', now: 2 }, context);
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const intent = (amount: number, ref = 'ref-1'): TransferIntent => aTransferIntent(ACC, amount, ref);
  const reserve = async (i: TransferIntent) => {
    await handleCommand(store, transferReferenceStream(ACC, i.unique_reference), transferReferenceDecider, { type: 'ReserveTransferReference', intent: i, now: Date.now() }, context);
    return (await store.readStream(transferReferenceStream(ACC, i.unique_reference))).at(-1)!;
  };
  const hold = (i: TransferIntent) =>
    handleCommand(store, accountStream(ACC), accountDecider, { type: 'PlaceHold', account_id: ACC, hold_id: i.id, amount: i.amount, fee: i.fee, origin_done: false, now: 3 }, context);
  const account = async () => fold(accountDecider, (await store.readStream(accountStream(ACC))) as never[]) as OpenAccountState;
  const transfer = async (i: TransferIntent) => fold(transferDecider, (await store.readStream(transferStream(i.id))) as never[]);
  const reference = async (i: TransferIntent) => fold(transferReferenceDecider, (await store.readStream(transferReferenceStream(ACC, i.unique_reference))) as never[]);

  it('reservation written, nothing else: recovery holds and creates the transfer', async () => {
    const i = intent(1_000);
    const reserved = await reserve(i);
    await recovery().handle(reserved, signal);
    expect(await transfer(i)).toMatchObject({ status: 'pending', transfer: { id: i.id, amount: 1_000 } });
    expect(balanceOf(await account())).toEqual({ available: 8_990, current: 10_000 });
  });

  it('hold placed, transfer not recorded: recovery records it without holding twice; running again changes nothing', async () => {
    const i = intent(1_000);
    const reserved = await reserve(i);
    await hold(i);
    await recovery().handle(reserved, signal);
    await recovery().handle(reserved, signal);
    expect((await transfer(i)).status).toBe('pending');
    expect(balanceOf(await account())).toEqual({ available: 8_990, current: 10_000 });
    expect((await store.readStream(transferStream(i.id))).map((e) => e.type)).toEqual(['TransferCreated']);
  });

  it('reservation written, funds gone meanwhile: recovery voids the id and frees the reference', async () => {
    const i = intent(20_000);
    const reserved = await reserve(i);
    await recovery().handle(reserved, signal);
    expect((await transfer(i)).status).toBe('voided');
    expect((await reference(i)).status).toBe('free');
    expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
  });

  it('voided while a racer held it and then crashed: recovery gives the hold back', async () => {
    const i = intent(1_000);
    const reserved = await reserve(i);
    await hold(i);
    await handleCommand(store, transferStream(i.id), transferDecider, { type: 'VoidTransfer', transfer_id: i.id, account_id: ACC, reason: 'insufficient_funds', now: 4 }, context);
    await recovery().handle(reserved, signal);
    expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
    expect((await reference(i)).status).toBe('free');
  });

  it('a reference re-reserved by a later request: recovery of the old id only releases a stray hold', async () => {
    const old = intent(1_000);
    const reserved = await reserve(old);
    await hold(old);
    await handleCommand(store, transferStream(old.id), transferDecider, { type: 'VoidTransfer', transfer_id: old.id, account_id: ACC, reason: 'insufficient_funds', now: 4 }, context);
    await handleCommand(store, transferReferenceStream(ACC, 'ref-1'), transferReferenceDecider, { type: 'ReleaseTransferReference', transfer_id: old.id, now: 5 }, context);
    const next = intent(2_000);
    await reserve(next);
    await recovery().handle(reserved, signal);
    expect(balanceOf(await account())).toEqual({ available: 10_000, current: 10_000 });
    expect(await reference(next)).toMatchObject({ status: 'reserved', transfer_id: next.id });
  });

  it('transfer succeeded but the money step crashed: re-running it settles exactly once', async () => {
    const i = intent(1_000);
    await recovery().handle(await reserve(i), signal);
    for (const to of ['processing', 'successful'] as const) {
      await handleCommand(store, transferStream(i.id), transferDecider, { type: 'AdvanceTransfer', transfer_id: i.id, to, now: 6 }, context);
    }
    const succeeded = (await store.readStream(transferStream(i.id))).at(-1)!;
    const money = transferMoneyManager(bus.commands);
    await money.handle(succeeded, signal);
    await money.handle(succeeded, signal);
    expect(balanceOf(await account())).toEqual({ available: 8_990, current: 8_990 });
  });
});
