import { bearer, type TestApp } from '../support/test-app';

/** A quick-start entity: an individual approved at once in the sandbox (decisions §3). */
export async function approvedEntity(t: TestApp, key: string, lastName = 'Okafor'): Promise<string> {
  const res = await t.http.post('/entities').set(bearer(key)).send({ first_name: 'Ada', last_name: lastName, email: 'ada@example.com', country: 'NG' });
  if (res.status !== 201) throw new Error(`quick start failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** An individual that has not been submitted for review: pending, so it may not hold accounts. */
export async function pendingEntity(t: TestApp, key: string): Promise<string> {
  const res = await t.http
    .post('/individual-entities')
    .set(bearer(key))
    .send({ first_name: 'Bola', last_name: 'Adeyemi', email: 'bola@example.com', date_of_birth: '1990-04-12', country_of_residence: 'NG' });
  if (res.status !== 201) throw new Error(`individual entity failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export async function openAccount(t: TestApp, key: string, body: Record<string, unknown>) {
  const res = await t.http.post('/accounts').set(bearer(key)).send(body);
  if (res.status !== 201) throw new Error(`open account failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; service_ban: string; currency: string; entity_id: string; balance: { available: number; current: number } };
}

export async function entityToken(t: TestApp, key: string, entityId: string): Promise<string> {
  const res = await t.http.post('/entity-tokens').set(bearer(key)).send({ entity_id: entityId });
  if (res.status !== 201) throw new Error(`entity token failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

export const ACC_ID = /^acc_[0-9A-HJKMNP-TV-Z]{26}$/;
export const UNKNOWN_ACCOUNT = 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV';
