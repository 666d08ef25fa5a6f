import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import { account, pinClock, virtualBody } from './helpers';

const HOUR = 3_600_000;
const AT = Date.UTC(2030, 0, 15, 10, 59, 30);

describe('card creation limit per entity and hour (CARD_CREATION_LIMIT_PER_HOUR)', () => {
  let t: TestApp;
  let setClock: (at: number) => void;
  beforeAll(async () => {
    t = await startTestApp({ CARD_CREATION_LIMIT_PER_HOUR: '3' });
    setClock = pinClock(t, AT);
  });
  afterAll(() => t.close());

  const create = (accountId: string) =>
    t.http.post('/virtual-cards').set(bearer(KEYS.sandbox)).send(virtualBody(accountId));

  it('answers 429 past the limit with the decided body and Retry-After, per entity, until the next hour', async () => {
    const entity = await approvedEntity(t);
    const [a, b] = [await account(t, entity), await account(t, entity, 'EUR')];
    await create(a).expect(201);
    await create(b).expect(201);
    await create(a).expect(201);
    const refused = await create(b).expect(429);
    expect(refused.body).toEqual({
      status: 'error',
      code: 'rate_limited',
      message: expect.any(String),
      errors: [],
      retry_after: 30,
      limit_type: 'card_creation_per_hour',
      current_count: 3,
      limit: 3,
    });
    expect(refused.headers['retry-after']).toBe('30');
    // Another entity has its own count.
    const other = await approvedEntity(t, KEYS.sandbox, 'Other');
    await create(await account(t, other)).expect(201);
    // The next clock hour starts a new count.
    setClock(Math.floor(AT / HOUR) * HOUR + HOUR);
    await create(a).expect(201);
  });

  it('parallel creations never pass the limit', async () => {
    setClock(AT + 10 * HOUR);
    const entity = await approvedEntity(t);
    const acc = await account(t, entity);
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => create(acc)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, ...Array(9).fill(429)]);
  });
});
