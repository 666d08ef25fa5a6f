import { transferStream } from '@app/application/transfers/streams';
import { CommandBus } from '@nestjs/cqrs';
import { transferRailsManager } from '@app/application/transfers/transfer-rails.process-manager';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@app/platform/event-store/event-store.port';
import { startTestApp, type TestApp } from '../support/test-app';
import { BANK_USD, advance, balanceOf, paymentDetail, payer, post, transferBody } from './helpers';

/**
 * Issue 21 for the sandbox rails: a rail move's key is `<transfer id>:<target status>`, and the
 * transfer stream is where it is deduplicated: the move is one append with the revision read, and
 * the lifecycle never enters a status twice. So when the simulated network (the `transfer-rails`
 * process manager) and the sandbox endpoint perform the same move at once, one appends it and
 * applies its money; the other is refused (409 to the endpoint, dropped by the manager).
 */
describe('one rail move per transfer and target status', () => {
  let t: TestApp;
  let store: EventStore;
  let rails: ReturnType<typeof transferRailsManager>;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get<EventStore>(EVENT_STORE);
    rails = transferRailsManager(t.app.get(CommandBus), 0);
  });
  afterAll(() => t.close());

  const eventsOf = (id: string) => store.readStream(transferStream(id));
  const last = async (id: string) => (await eventsOf(id)).at(-1) as RecordedEvent;

  it('the network and the sandbox endpoint racing on each move: each move once, its money once', async () => {
    const FUNDED = 100_000;
    const p = await payer(t, 'USD', FUNDED);
    const bank = await paymentDetail(t, p.counterparty, BANK_USD);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await post(t, transferBody(p.account, bank, { amount: 1_000 })).expect(201)).body.id);

    for (const to of ['processing', 'successful'] as const) {
      const raced = await Promise.all(
        ids.map(async (id) => {
          const event = await last(id);
          const [endpoint] = await Promise.all([advance(t, id, { to }), rails.handle(event, signal)]);
          return endpoint.status;
        }),
      );
      // 200 when the endpoint moved it, 409 invalid_transition when the network had.
      expect(raced.every((s) => s === 200 || s === 409)).toBe(true);
    }

    for (const id of ids) {
      const types = (await eventsOf(id)).map((e) => e.type);
      expect(types).toEqual(['TransferCreated', 'TransferProcessing', 'TransferSucceeded']);
    }
    const account = await store.readStream(`account-${p.account}`);
    const settled = account.filter((e) => e.type === 'HoldSettled').map((e) => (e.data as { hold_id: string }).hold_id);
    expect(settled.sort()).toEqual([...ids].sort());
    await t.settle();
    const debited = ids.length * (1_000 + 3); // 25 bps of 1 000, rounded up
    expect(await balanceOf(t, p.account)).toEqual({ available: FUNDED - debited, current: FUNDED - debited });
  });
});
