import { openAccount } from '../accounts/accounts-helpers';
import { account as cardAccount, authorize, virtualCard } from '../cards/helpers';
import { card, cardAction, confirm, createIntent, encrypt, publicKeyOf, walletAction } from '../collections/helpers';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import {
  BANK_USD,
  advance,
  balanceOf,
  bookTo,
  eventually,
  fund,
  paymentDetail,
  payer,
  post,
  transferBody,
} from '../transfers/helpers';

/**
 * Every money shape the ledger derives (decisions §12), through the API: sandbox funding; payouts
 * with their fee that succeed, fail, and succeed then come back (reversed); a book transfer; card
 * authorizations held (`capture: false`) then partly captured, held then reversed, captured at
 * once; FX card authorizations (a USD card on a EUR account), one captured at once and one held
 * then partly captured; a wallet collection and a card collection with their fees, each partly
 * refunded; a payout and a card authorization still pending at the end; a second organization
 * with a funding and a payout. test/fixtures/event-log-v2-before-ledger.jsonl is this workload's
 * log as the code before the ledger (commit 5f5e421) wrote it: see write-event-log-v2.ts.
 */
export async function ledgerWorkload(t: TestApp) {
  const key = KEYS.sandbox;
  const p = await payer(t, 'USD', 100_000);
  const destination = await openAccount(t, key, { entity_id: p.entity, currency: 'USD' });
  await fund(t, destination.id, 5_000, 'USD');

  const bank = await paymentDetail(t, p.counterparty, BANK_USD);
  const payout = async (amount: number) =>
    (await post(t, transferBody(p.account, bank, { amount })).expect(201)).body as { id: string; fee: number };
  const paid = await payout(10_000);
  await advance(t, paid.id, { to: 'processing' }).expect(200);
  await advance(t, paid.id, { to: 'successful' }).expect(200);
  const failed = await payout(2_000);
  await advance(t, failed.id, { to: 'failed' }).expect(200);
  const reversed = await payout(3_000);
  await advance(t, reversed.id, { to: 'processing' }).expect(200);
  await advance(t, reversed.id, { to: 'successful' }).expect(200);
  await advance(t, reversed.id, { to: 'reversed', status_reason: 'returned_by_bank' }).expect(200);

  const book = await paymentDetail(t, p.counterparty, bookTo(destination.id));
  const booked = (
    await post(t, transferBody(p.account, book, { amount: 3_000, payment_type: 'book-transfer' })).expect(201)
  ).body as { id: string };
  await eventually(
    () => balanceOf(t, destination.id),
    (b) => b.current === 8_000,
    'the book transfer credited',
  );

  const capture = (id: string, body: object = {}) =>
    t.http.post(`/sandbox/card-transactions/${id}/capture`).set(bearer(key)).send(body);
  const reverse = (id: string) => t.http.post(`/sandbox/card-transactions/${id}/reverse`).set(bearer(key)).send({});
  const usdCard = await virtualCard(t, p.account);
  const heldThenCaptured = (await authorize(t, usdCard.id, { amount: 4_000, capture: false }).expect(201)).body
    .data as { id: string };
  await capture(heldThenCaptured.id, { amount: 3_000 }).expect(200);
  const heldThenReversed = (await authorize(t, usdCard.id, { amount: 1_500, capture: false }).expect(201)).body
    .data as { id: string };
  await reverse(heldThenReversed.id).expect(200);
  const captured = (await authorize(t, usdCard.id, { amount: 2_500 }).expect(201)).body.data as {
    id: string;
    status: string;
  };
  if (captured.status !== 'successful') throw new Error(`card authorization: ${captured.status}`);

  const eur = await cardAccount(t, p.entity, 'EUR', 100_000);
  const fxCard = await virtualCard(t, p.account);
  await t.http.patch(`/cards/${fxCard.id}/account`).set(bearer(key)).send({ account_id: eur }).expect(200);
  const fx = (await authorize(t, fxCard.id, { amount: 1_000 }).expect(201)).body.data as { id: string; fx: unknown };
  if (!fx.fx) throw new Error('the FX authorization was not converted');
  const fxHeld = (await authorize(t, fxCard.id, { amount: 3_000, capture: false }).expect(201)).body.data as {
    id: string;
  };
  await capture(fxHeld.id, { amount: 1_001 }).expect(200);

  const wallet = await createIntent(t, destination.id, { amount: 10_000 });
  const walletDone = (await confirm(t, wallet.id, walletAction()).expect(201)).body as { id: string; status: string };
  if (walletDone.status !== 'completed') throw new Error(`wallet collection: ${walletDone.status}`);
  await t.http.post(`/payment-intents/${wallet.id}/refunds`).set(bearer(key)).send({ amount: 1_000 }).expect(201);
  const pem = await publicKeyOf(t);
  const cardIntent = await createIntent(t, destination.id, { amount: 20_000 });
  await confirm(
    t,
    cardIntent.id,
    cardAction(
      encrypt(pem, card()),
      { return_url: undefined },
      { auth_model: '3ds_disabled', browser_info: undefined },
    ),
  ).expect(201);
  await eventually(
    () =>
      t.http
        .get(`/payment-intents/${cardIntent.id}`)
        .set(bearer(key))
        .then((r) => r.body.status as string),
    (s) => s === 'completed',
    'the card collection completed',
  );
  await t.http.post(`/payment-intents/${cardIntent.id}/refunds`).set(bearer(key)).send({ amount: 2_500 }).expect(201);

  // Still open at the end of the log: a payout not yet sent and a card authorization not captured.
  const open = await payout(1_000);
  const openHold = (await authorize(t, usdCard.id, { amount: 700, capture: false }).expect(201)).body.data as {
    id: string;
  };

  // A second organization's books: funding and a paid-out transfer of its own.
  const other = await payer(t, 'USD', 50_000, KEYS.other);
  const otherBank = await paymentDetail(t, other.counterparty, BANK_USD, KEYS.other);
  const otherPaid = (
    await post(t, transferBody(other.account, otherBank, { amount: 7_000 }), '/transfer', KEYS.other).expect(201)
  ).body as { id: string };
  await advance(t, otherPaid.id, { to: 'processing' }, KEYS.other).expect(200);
  await advance(t, otherPaid.id, { to: 'successful' }, KEYS.other).expect(200);
  await t.settle();
  return {
    ...p,
    destination: destination.id,
    eur,
    paid: paid.id,
    open: { payout: open.id, hold: openHold.id },
    failed: failed.id,
    reversed: reversed.id,
    book: booked.id,
    cards: {
      heldThenCaptured: heldThenCaptured.id,
      heldThenReversed: heldThenReversed.id,
      captured: captured.id,
      fx: fx.id,
      fxHeld: fxHeld.id,
    },
    intents: { wallet: wallet.id, card: cardIntent.id },
    other: { account: other.account, paid: otherPaid.id },
  };
}
