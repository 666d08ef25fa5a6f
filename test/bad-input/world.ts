import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import type { World } from '../isolation/routes';
import { approvedEntity } from '../support/fixtures';
import { bearer, type TestApp } from '../support/test-app';
import { BANK_USD, fund, paymentDetail, post, transferBody } from '../transfers/helpers';
import { authorize, virtualCard } from '../cards/helpers';
import {
  card,
  cardAction,
  confirm,
  createIntent,
  encrypt,
  formTokenOf,
  publicKeyOf,
  walletAction,
} from '../collections/helpers';

/** One of every resource the routes name, created with `key`: what the bad requests aim at. */
export async function buildWorld(t: TestApp, key: string): Promise<World> {
  const entity = await approvedEntity(t, key);
  const personId = (await t.http.get(`/entities/${entity}`).set(bearer(key)).expect(200)).body.person_id as string;
  const business = (
    await t.http
      .post('/business-entities')
      .set(bearer(key))
      .send({
        legal_name: 'Probe Ltd',
        email: 'ops@probe.test',
        business_type: 'llc',
        country_of_incorporation: 'GB',
        registered_address: {
          line_1: '1 High Street',
          city: 'London',
          state: 'Greater London',
          postal_code: 'N1 9GU',
          country_code: 'GB',
        },
      })
      .expect(201)
  ).body.id as string;
  const account = (await openAccount(t, key, { entity_id: entity, currency: 'USD' })).id;
  await fund(t, account, 100_000, 'USD', key);
  const counterparty = (await createCounterparty(t, entity, {}, key)).id;
  const detail = await paymentDetail(t, counterparty, BANK_USD, key);
  const transfer = (await post(t, transferBody(account, detail), '/transfer', key).expect(201)).body.id as string;
  const webhook = (
    await t.http
      .post('/entity-webhooks')
      .set(bearer(key))
      .send({ entity_id: entity, url: 'https://hooks.example.com/probe', enabled_events: { outflows: ['completed'] } })
      .expect(201)
  ).body.id as string;
  const apiKey = (await t.http.post('/api-keys').set(bearer(key)).send({ name: 'probe' }).expect(201)).body
    .id as string;
  const event = (await t.http.get(`/transfers/${transfer}/history`).set(bearer(key)).expect(200)).body.data[0]
    .id as string;
  return {
    entity,
    personId,
    business,
    account,
    counterparty,
    paymentDetail: detail,
    transfer,
    webhook,
    apiKey,
    event,
    ...(await cardsAndCollections(t, key, entity, account)),
  };
}

/** A card with a held authorization; intents waiting for 3-D Secure, paid, and open (as the isolation matrix builds them). */
async function cardsAndCollections(t: TestApp, key: string, entity: string, account: string) {
  const account2 = (await openAccount(t, key, { entity_id: entity, currency: 'EUR' })).id;
  const issued = (await virtualCard(t, account, {}, key)).id;
  const cardTransaction = (await authorize(t, issued, { amount: 500, capture: false }, key).expect(201)).body.data
    .id as string;
  const waitingIntent = (await createIntent(t, account, {}, key)).id;
  const action = (
    await confirm(t, waitingIntent, cardAction(encrypt(await publicKeyOf(t, key), card())), key).expect(201)
  ).body.id as string;
  const paidIntent = (await createIntent(t, account, {}, key)).id;
  await confirm(t, paidIntent, walletAction(), key).expect(201);
  const openIntent = (await createIntent(t, account, {}, key)).id;
  return {
    account2,
    card: issued,
    cardTransaction,
    waitingIntent,
    action,
    actionFormToken: formTokenOf(t, action),
    paidIntent,
    openIntent,
  };
}

export const idsOf = (w: World): string[] => Object.values(w);
