import { bearer, KEYS, type TestApp } from './test-app';

/** A quick-start entity: an individual approved at once in the sandbox (decisions §3). */
export async function approvedEntity(t: TestApp, key: string = KEYS.sandbox, lastName = 'Okafor'): Promise<string> {
  const res = await t.http
    .post('/entities')
    .set(bearer(key))
    .send({ first_name: 'Ada', last_name: lastName, email: 'ada@example.com', country: 'NG' });
  if (res.status !== 201) throw new Error(`quick start failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** An individual not submitted for review: it exists, but is pending (no accounts yet). */
export async function pendingEntity(t: TestApp, key: string = KEYS.sandbox): Promise<string> {
  const res = await t.http.post('/individual-entities').set(bearer(key)).send({
    first_name: 'Bola',
    last_name: 'Adeyemi',
    email: 'bola@example.com',
    date_of_birth: '1990-04-12',
    country_of_residence: 'NG',
  });
  if (res.status !== 201) throw new Error(`individual entity failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** An entity token for `entityId`, issued with `key`. */
export async function tokenFor(t: TestApp, entityId: string, key: string = KEYS.sandbox): Promise<string> {
  const res = await t.http.post('/entity-tokens').set(bearer(key)).send({ entity_id: entityId });
  if (res.status !== 201) throw new Error(`entity token failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}
