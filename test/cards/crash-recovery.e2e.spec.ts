import { CommandBus } from '@nestjs/cqrs';
import { systemActor, handleCommand, reactionContext, type CommandContext } from '@app/application/command-handling';
import { accountStream } from '@app/application/accounts';
import { ApplyCardMoneyCommand, cardStream, cardTransactionStream } from '@app/application/cards';
import { cardDecider, cardTransactionIndexDecider, type CardEvent } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { authorize, balance, holder, MERCHANT, virtualCard } from './helpers';

const until = (probe: () => Promise<boolean>, what: string) => waitFor(probe, (done) => done, what);

/**
 * A request that dies between the card stream and the account stream: the card-money process
 * manager finishes the account side from the log, so the card and the money agree again.
 */
describe('card money after a request died midway', () => {
  let t: TestApp;
  let store: EventStore;
  let organizationId: string;
  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get(EVENT_STORE);
  });
  afterAll(() => t.close());

  /** The card-side steps a request would have written before dying, written as that request. */
  async function heldWithoutAccountHold(cardId: string, accountId: string, amount: number) {
    const ctx: CommandContext = {
      actor: systemActor(organizationId, 'crashed-request', 'sandbox'),
      correlationId: 'req_crashed',
      causationId: 'req_crashed',
    };
    const id = `ctxn_${ulid()}`;
    await handleCommand(
      store,
      cardTransactionStream(id),
      cardTransactionIndexDecider,
      { transaction_id: id, card_id: cardId },
      ctx,
    );
    const command = {
      type: 'AuthorizeCard' as const,
      card_id: cardId,
      transaction_id: id,
      amount,
      merchant: MERCHANT,
      account_id: accountId,
      fx: null,
      groups: {},
      now: Date.now(),
    };
    await handleCommand(store, cardStream(cardId), cardDecider, command, ctx);
    return { id, ctx };
  }

  it('places the missing hold, and a capture then debits it; a capture the account missed is applied', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    // The organization is the sandbox key's: read it from an event of the card's stream.
    organizationId = (await store.readStream(cardStream(card.id)))[0].metadata.organization_id;
    const { id, ctx } = await heldWithoutAccountHold(card.id, h.account, 3_000);
    await until(async () => (await balance(t, h.account)).available === 7_000, 'the backstop hold');
    expect(await balance(t, h.account)).toEqual({ available: 7_000, current: 10_000 });

    // The capture's card step lands, then the request dies before the account's.
    await handleCommand(
      store,
      cardStream(card.id),
      cardDecider,
      { type: 'CaptureCardTransaction', card_id: card.id, transaction_id: id, amount: 2_000, now: Date.now() },
      ctx,
    );
    await until(async () => (await balance(t, h.account)).current === 8_000, 'the backstop capture');
    expect(await balance(t, h.account)).toEqual({ available: 8_000, current: 8_000 });
  });

  it('declines a held authorization the balance cannot cover, and releases what a reversal left held', async () => {
    const h = await holder(t, 'USD', 1_000);
    const card = await virtualCard(t, h.account);
    const { id } = await heldWithoutAccountHold(card.id, h.account, 5_000);
    await until(async () => {
      const res = await t.http.get(`/card-transactions/${card.id}`).set(bearer(KEYS.sandbox));
      return res.body.data.payments[0]?.status === 'declined';
    }, 'the backstop decline');
    const shown = (await t.http.get(`/card-transactions/${card.id}`).set(bearer(KEYS.sandbox))).body.data.payments[0];
    expect(shown).toMatchObject({ id, status: 'declined', status_reason: 'insufficient_funds' });
    expect(await balance(t, h.account)).toEqual({ available: 1_000, current: 1_000 });

    const pending = (await authorize(t, card.id, { amount: 600, capture: false }).expect(201)).body.data;
    await handleCommand(
      store,
      cardStream(card.id),
      cardDecider,
      { type: 'ReverseCardTransaction', card_id: card.id, transaction_id: pending.id, now: Date.now() },
      { actor: systemActor(organizationId, 'crashed-request', 'sandbox'), correlationId: 'r', causationId: 'r' },
    );
    await until(async () => (await balance(t, h.account)).available === 1_000, 'the backstop release');
  });

  // The soak once caught a backstop deciding on a card read older than its account read: the
  // request's hold was placed and settled, the card still looked pending, and the money moved twice.
  it('a backstop that comes after the request finished the transaction moves no money', async () => {
    const h = await holder(t, 'USD', 10_000);
    const card = await virtualCard(t, h.account);
    await authorize(t, card.id, { amount: 2_500 }).expect(201);
    await t.settle();
    const before = await store.readStream(accountStream(h.account));
    expect(await balance(t, h.account)).toEqual({ available: 7_500, current: 7_500 });
    // The process manager's steps for the authorization and the capture, run once more, late.
    const commands = t.app.get(CommandBus);
    for (const recorded of await store.readStream(cardStream(card.id)))
      if (recorded.type === 'CardAuthorizationHeld' || recorded.type === 'CardTransactionCaptured')
        await commands.execute(
          new ApplyCardMoneyCommand(reactionContext(recorded, 'card-money'), recorded as unknown as CardEvent),
        );
    expect(await store.readStream(accountStream(h.account))).toHaveLength(before.length);
    expect(await balance(t, h.account)).toEqual({ available: 7_500, current: 7_500 });
  });
});
