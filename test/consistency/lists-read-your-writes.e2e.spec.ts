import type { Response } from 'supertest';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import type { HeldBackReadStore } from '../support/held-back-read-store';
import { BANK_USD, fund, payer, transferBody } from '../transfers/helpers';
import { readAfterWrite, REPEATS, startHeldBackApp } from './consistency-helpers';

/**
 * Decisions §2: once a write answered 2xx, a list read after it includes it, although the read
 * models lag the log. The projections are held back when the read starts and released a moment
 * later: the list must wait for them, and never answer without the new item.
 */
describe('consistency: a list read right after a create includes it', () => {
  let t: TestApp & { readModels: HeldBackReadStore };
  let entity: string;
  beforeAll(async () => {
    t = await startHeldBackApp();
    entity = await approvedEntity(t);
  });
  afterAll(() => t.close());

  const get = (path: string) => () => t.http.get(path).set(bearer(KEYS.sandbox));
  /** A create that answers `status`; resolves to the id of what it created. */
  const post =
    (path: string, body: () => Record<string, unknown>, status = 201) =>
    async () => {
      const res = await t.http.post(path).set(bearer(KEYS.sandbox)).send(body());
      if (res.status !== status) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };

  /** Creates REPEATS times; each time the list, read while held, must show the new item first. */
  async function expectListedEveryTime(
    create: () => Promise<unknown>,
    list: () => PromiseLike<Response>,
    newest: (res: Response) => unknown = (res) => res.body.data[0]?.id,
  ) {
    let held = 0;
    for (let i = 0; i < REPEATS; i++) {
      let expected: unknown;
      const read = await readAfterWrite(t, async () => (expected = await create()), list);
      expect({
        i,
        answeredWhileHeld: read.answeredWhileHeld,
        status: read.response.status,
        newest: newest(read.response),
      }).toEqual({ i, answeredWhileHeld: false, status: 200, newest: expected });
      if (read.projectorWasHeld) held += 1;
    }
    // The hold really kept the projector at the gate (else this test would prove nothing).
    expect(held).toBeGreaterThan(0);
  }

  it('entities', async () => {
    await expectListedEveryTime(
      post('/entities', () => ({ first_name: 'Ada', last_name: 'Okafor', email: 'ada@example.com', country: 'NG' })),
      get('/entities?limit=1'),
    );
  });

  it('accounts', async () => {
    await expectListedEveryTime(
      post('/accounts', () => ({ entity_id: entity, currency: 'USD' })),
      get(`/accounts?entity_id=${entity}&limit=1`),
    );
  });

  it('counterparties', async () => {
    await expectListedEveryTime(
      post('/counterparties', () => ({
        type: 'individual',
        entity_id: entity,
        profile: { first_name: 'Grace', last_name: 'Hopper' },
      })),
      get(`/counterparties?entity_id=${entity}&limit=1`),
    );
  });

  it('payment details of a counterparty', async () => {
    const counterparty = await createCounterparty(t, entity);
    await expectListedEveryTime(
      post(`/counterparties/${counterparty.id}/payment-details`, () => BANK_USD),
      get(`/counterparties/${counterparty.id}/payment-details?limit=1`),
    );
  });

  it('transfers', async () => {
    const p = await payer(t, 'USD', REPEATS * 200);
    const detail = await post(`/counterparties/${p.counterparty}/payment-details`, () => BANK_USD)();
    await expectListedEveryTime(
      post('/transfer', () => transferBody(p.account, detail, { amount: 100 })),
      get(`/transfers?entity_id=${p.entity}&limit=1`),
    );
  });

  it('the statement of an account (sandbox funding)', async () => {
    const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    let amount = 0;
    // Each funding adds one credit of a distinct amount; the newest entry must be the last one.
    const fundOnce = async () => {
      amount += 1;
      await fund(t, account.id, amount, 'USD');
      return amount;
    };
    await expectListedEveryTime(
      fundOnce,
      get(`/accounts/${account.id}/transactions?limit=1`),
      (res) => res.body.data[0]?.amount,
    );
  });

  it('webhooks', async () => {
    await expectListedEveryTime(
      post('/entity-webhooks', () => ({
        entity_id: entity,
        url: 'https://hooks.example.com/payments',
        enabled_events: { all: true },
      })),
      get(`/entity-webhooks?entity_id=${entity}&limit=1`),
    );
  });
});

describe('consistency: past the bound a list answers 503, never a stale page', () => {
  let t: TestApp & { readModels: HeldBackReadStore };
  beforeAll(async () => {
    t = await startHeldBackApp({ READ_CONSISTENCY_TIMEOUT_MS: '200' });
  });
  afterAll(() => t.close());

  it('503 read_model_lagging with Retry-After while the read model stays behind, the full list once it catches up', async () => {
    t.readModels.hold();
    const id = await approvedEntity(t);
    const lagging = await t.http.get('/entities').set(bearer(KEYS.sandbox));
    expect({ status: lagging.status, retryAfter: lagging.headers['retry-after'], body: lagging.body }).toEqual({
      status: 503,
      retryAfter: '1',
      body: { status: 'error', code: 'read_model_lagging', message: expect.stringContaining('entities'), errors: [] },
    });
    t.readModels.release();
    const listed = await t.http.get('/entities?limit=1').set(bearer(KEYS.sandbox)).expect(200);
    expect(listed.body.data[0].id).toBe(id);
  });
});
