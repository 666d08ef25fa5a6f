import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { counterpartyDecider } from '@app/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { handleCommand, systemActor, type CommandContext } from '../command-handling';
import { findPaymentDetail } from './payment-detail-index';
import { paymentDetailIndexManager } from './payment-detail-index.process-manager';
import { counterpartyStream } from './streams';
import { commandBusFor } from '../testing/command-bus';
import { IndexPaymentDetailHandler } from './index-payment-detail/index-payment-detail.handler';
import type { CommandBus } from '@nestjs/cqrs';

/** The index on a real store: found through the log alone, and rebuilt for details that have none. */
describe('payment detail index', () => {
  let dir: string;
  let store: SqliteEventStore;
  const context: CommandContext = {
    actor: systemActor('org_a', 'test', 'sandbox'),
    correlationId: 'c',
    causationId: 'c',
  };
  const CPT = `cpt_${ulid()}`;
  const PMD = `pmd_${ulid()}`;
  const signal = new AbortController().signal;
  let bus: { commands: CommandBus; close(): Promise<void> };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pmd-index-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    bus = await commandBusFor(store, [IndexPaymentDetailHandler]);
    const create = {
      type: 'CreateCounterparty' as const,
      counterparty_id: CPT,
      entity_id: 'ent_1',
      counterparty_type: 'individual' as const,
      nickname: null,
      profile: { first_name: 'Ada', last_name: 'L' },
      meta: {},
      now: 1,
    };
    await handleCommand(store, counterpartyStream(CPT), counterpartyDecider, create, context);
    const detail = {
      payment_method: 'book-transfer' as const,
      currency: 'USD',
      country: 'US',
      book: { account_id: 'acc_1' },
    };
    // Written the way the code before the index did: the detail, and no index entry.
    await handleCommand(
      store,
      counterpartyStream(CPT),
      counterpartyDecider,
      {
        type: 'AddPaymentDetail',
        counterparty_id: CPT,
        scope: null,
        payment_detail_id: PMD,
        detail,
        book: { account_id: 'acc_1', currency: 'USD' },
        now: 2,
      },
      context,
    );
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a detail without an index entry is not found until the backfill indexes it; a second run writes nothing', async () => {
    expect(await findPaymentDetail(store, context.actor, PMD)).toBeNull();
    const added = (await store.readStream(counterpartyStream(CPT)))[1];
    await paymentDetailIndexManager(bus.commands).handle(added, signal);
    const head = await store.headPosition();
    await paymentDetailIndexManager(bus.commands).handle(added, signal);
    expect(await store.headPosition()).toBe(head);
    expect(await findPaymentDetail(store, context.actor, PMD)).toMatchObject({
      id: PMD,
      counterparty_id: CPT,
      counterparty_status: 'active',
      entity_id: 'ent_1',
      book_account_id: 'acc_1',
    });
  });

  it('follows the counterparty stream: deactivation and reassignment count at once; another organization finds nothing', async () => {
    await paymentDetailIndexManager(bus.commands).handle((await store.readStream(counterpartyStream(CPT)))[1], signal);
    await handleCommand(
      store,
      counterpartyStream(CPT),
      counterpartyDecider,
      { type: 'UpdateCounterparty', counterparty_id: CPT, scope: null, reassign_to: 'ent_2', now: 3 },
      context,
    );
    expect(await findPaymentDetail(store, context.actor, PMD)).toMatchObject({ entity_id: 'ent_2' });
    await handleCommand(
      store,
      counterpartyStream(CPT),
      counterpartyDecider,
      { type: 'DeactivateCounterparty', counterparty_id: CPT, scope: null, now: 4 },
      context,
    );
    expect(await findPaymentDetail(store, context.actor, PMD)).toMatchObject({ counterparty_status: 'inactive' });
    expect(await findPaymentDetail(store, systemActor('org_b', 'test', 'sandbox'), PMD)).toBeNull();
    expect(await findPaymentDetail(store, systemActor('org_a', 'test', 'live'), PMD)).toBeNull();
    await expect(
      findPaymentDetail(store, { ...context.actor, kind: 'entity_token', entityId: 'ent_1' }, PMD),
    ).rejects.toMatchObject({ error: { code: 'forbidden' } });
  });
});
