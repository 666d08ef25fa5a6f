import { KEYS, bearer, type TestApp } from '../support/test-app';

export const individualBody = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  last_name: 'Okafor',
  email: 'ada@example.com',
  date_of_birth: '1990-01-31',
  country_of_residence: 'NG',
  ...overrides,
});

export const businessBody = (overrides: Record<string, unknown> = {}) => ({
  legal_name: 'Acme Trading Ltd',
  email: 'ops@acme.test',
  business_type: 'llc',
  country_of_incorporation: 'GB',
  registered_address: {
    line_1: '1 High Street',
    city: 'London',
    state: 'Greater London',
    postal_code: 'N1 9GU',
    country_code: 'GB',
  },
  ...overrides,
});

/** Smallest byte strings that pass the magic-byte check of each accepted type. */
export const FILES = {
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]),
  pdf: Buffer.from('%PDF-1.7\n%%EOF\n'),
};

export async function createIndividual(
  t: TestApp,
  key: string = KEYS.sandbox,
  overrides: Record<string, unknown> = {},
) {
  const res = await t.http.post('/individual-entities').set(bearer(key)).send(individualBody(overrides)).expect(201);
  return res.body as { id: string; person_id: string; status: string };
}

export function uploadDocument(
  t: TestApp,
  personId: string,
  key: 'identity' | 'address',
  auth: string = KEYS.sandbox,
  file = FILES.png,
) {
  return t.http
    .post('/documents/upload')
    .set(bearer(auth))
    .field('key', key)
    .field('link_to_identity[person_id]', personId)
    .attach('file', file, { filename: `${key}.bin`, contentType: 'application/octet-stream' });
}

/** An individual with both documents, ready to submit. */
export async function readyIndividual(t: TestApp, overrides: Record<string, unknown> = {}, key: string = KEYS.sandbox) {
  const entity = await createIndividual(t, key, overrides);
  await uploadDocument(t, entity.person_id, 'identity', key).expect(201);
  await uploadDocument(t, entity.person_id, 'address', key, FILES.pdf).expect(201);
  return entity;
}

export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
