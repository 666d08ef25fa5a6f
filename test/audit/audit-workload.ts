import { openAccount } from '../accounts/accounts-helpers';
import { createIntent, confirm, walletAction } from '../collections/helpers';
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

/** Money in every shape the ledger knows: funding, a paid-out transfer with its fee, a failed one, a book transfer, a collection with its fee and a refund. */
export async function auditWorkload(t: TestApp) {
  const p = await payer(t, 'USD', 100_000);
  const destination = await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD' });
  await fund(t, destination.id, 5_000, 'USD');
  const bank = await paymentDetail(t, p.counterparty, BANK_USD);
  const paid = (await post(t, transferBody(p.account, bank, { amount: 10_000 })).expect(201)).body as { id: string };
  await advance(t, paid.id, { to: 'processing' }).expect(200);
  await advance(t, paid.id, { to: 'successful' }).expect(200);
  const failed = (await post(t, transferBody(p.account, bank, { amount: 2_000 })).expect(201)).body as { id: string };
  await advance(t, failed.id, { to: 'failed' }).expect(200);
  const book = await paymentDetail(t, p.counterparty, bookTo(destination.id));
  await post(t, transferBody(p.account, book, { amount: 3_000, payment_type: 'book-transfer' })).expect(201);
  await eventually(
    () => balanceOf(t, destination.id),
    (b) => b.current === 8_000,
    'the book transfer credited',
  );
  const intent = await createIntent(t, destination.id);
  const action = (await confirm(t, intent.id, walletAction()).expect(201)).body as { id: string; status: string };
  if (action.status !== 'completed') throw new Error(`wallet collection: ${action.status}`);
  await t.http
    .post(`/payment-intents/${intent.id}/refunds`)
    .set(bearer(KEYS.sandbox))
    .send({ amount: 1_000 })
    .expect(201);
  await t.settle();
  return { ...p, destination: destination.id, paid: paid.id, failed: failed.id, intent: intent.id, action: action.id };
}
