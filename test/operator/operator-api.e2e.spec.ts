import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTOMATIC_REVIEW_DELAY_MS } from '@app/domain/onboarding';
import { loadConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, startTestApp, type TestApp } from '../support/test-app';
import { eventually, readyIndividual } from '../onboarding/fixtures';
import { paymentDetail, payer, post, transferBody, BANK_USD } from '../transfers/helpers';

const TOKEN = 'op_' + 'x'.repeat(40);
const operator = { Authorization: `Bearer ${TOKEN}` };

describe('operator API (decisions §11)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PAYMENTS_ADMIN_TOKEN: TOKEN, SANDBOX_AUTO_ADVANCE: 'true' });
  });
  afterAll(() => t.close());

  const store = () => t.app.get<EventStore>(EVENT_STORE);
  const organizationOf = async (stream: string) => (await store().readStream(stream))[0].metadata.organization_id;
  const submittedLive = async () => {
    const entity = await readyIndividual(t, {}, KEYS.live);
    await t.http.post('/onboarding-submissions').set(bearer(KEYS.live)).send({ entity_id: entity.id }).expect(200);
    return entity.id;
  };

  it('answers 401 without the token or with a wrong one, and never accepts an API key', async () => {
    const entity = await submittedLive();
    for (const auth of [{}, { Authorization: `Bearer ${TOKEN}x` }, bearer(KEYS.live), { Authorization: TOKEN }]) {
      const res = await t.http
        .post(`/admin/entities/${entity}/review`)
        .set(auth)
        .send({ decision: 'approved' })
        .expect(401);
      expect(res.body).toMatchObject({ status: 'error', code: 'unauthorized' });
    }
  });

  it('never lets the automatic sandbox review touch a live entity; the operator approves it, recorded as operator', async () => {
    const live = await submittedLive();
    const sandbox = await readyIndividual(t);
    await t.http.post('/onboarding-submissions').set(bearer(KEYS.sandbox)).send({ entity_id: sandbox.id }).expect(200);
    // The review sleeps on the app's clock: move it past the review's delay rather than wait it out.
    t.clock.advance(AUTOMATIC_REVIEW_DELAY_MS);
    await eventually(
      () => t.http.get(`/entities/${sandbox.id}`).set(bearer(KEYS.sandbox)),
      (r) => r.body.status === 'approved',
    );
    expect((await t.http.get(`/entities/${live}`).set(bearer(KEYS.live)).expect(200)).body.status).not.toBe('approved');

    const reviewed = await t.http
      .post(`/admin/entities/${live}/review`)
      .set(operator)
      .send({ decision: 'approved', reason: 'documents checked' })
      .expect(200);
    expect(reviewed.body).toMatchObject({ id: live, status: 'approved' });
    expect((await t.http.get(`/entities/${live}`).set(bearer(KEYS.live)).expect(200)).body.status).toBe('approved');
    const last = (await store().readStream(`entity-${live}`)).at(-1)!;
    expect(last.metadata).toMatchObject({ actor: 'operator', mode: 'live' });
    expect(last.data).toMatchObject({ reviewer: 'operator', reason: 'documents checked' });
    // Same rules as the sandbox review: a decided entity is a conflict.
    await t.http.post(`/admin/entities/${live}/review`).set(operator).send({ decision: 'rejected' }).expect(409);
  });

  it("keeps the sandbox simulators off live resources even within the organization: a sandbox key's review of a live entity is 404", async () => {
    const live = await submittedLive();
    const sandboxKey = (await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201))
      .body.key as string;
    const res = await t.http
      .post(`/sandbox/entities/${live}/review`)
      .set(bearer(sandboxKey))
      .send({ decision: 'approved' })
      .expect(404);
    expect(res.body.code).toBe('entity_not_found');
    expect((await t.http.get(`/entities/${live}`).set(bearer(KEYS.live)).expect(200)).body.status).not.toBe('approved');
  });

  it('validates bodies and answers 404 for unknown ids', async () => {
    await t.http
      .post('/admin/entities/ent_01ARZ3NDEKTSV4RRFFQ69G5FAV/review')
      .set(operator)
      .send({ decision: 'approved' })
      .expect(404);
    await t.http.post('/admin/entities/nope/review').set(operator).send({ decision: 'approved' }).expect(404);
    await t.http
      .post('/admin/transfers/trf_01ARZ3NDEKTSV4RRFFQ69G5FAV/advance')
      .set(operator)
      .send({ to: 'processing' })
      .expect(404);
    const bad = await t.http
      .post(`/admin/entities/${await submittedLive()}/review`)
      .set(operator)
      .send({ decision: 'maybe' })
      .expect(400);
    expect(bad.body.errors[0].field).toBe('decision');
  });

  it('advances a transfer of any mode through the lifecycle, money included', async () => {
    const p = await payer(t, 'USD', 100_000);
    const detail = await paymentDetail(t, p.counterparty, BANK_USD);
    const created = await post(t, transferBody(p.account, detail, { amount: 10_000 })).expect(201);
    const moved = await t.http
      .post(`/admin/transfers/${created.body.id}/advance`)
      .set(operator)
      .send({ to: 'failed', status_reason: 'rejected_by_bank' })
      .expect(200);
    expect(moved.body).toMatchObject({ id: created.body.id, status: 'failed' });
    const balance = (await t.http.get(`/accounts/${p.account}`).set(bearer(KEYS.sandbox)).expect(200)).body.balance;
    expect(balance).toEqual({ available: 100_000, current: 100_000 });
    await t.http
      .post(`/admin/transfers/${created.body.id}/advance`)
      .set(operator)
      .send({ to: 'processing' })
      .expect(409);
  });

  it("lists one organization's events of every mode, oldest first, by log position, without secrets", async () => {
    const sandboxKey = (await t.http.post('/api-keys').set(bearer(KEYS.live)).send({ mode: 'sandbox' }).expect(201))
      .body;
    const sandboxEntity = await approvedEntity(t, sandboxKey.key);
    const organization = await organizationOf(`entity-${sandboxEntity}`);
    const seen: Array<{
      position: number;
      resource_id: string;
      metadata: { actor: string };
      data: unknown;
      resource_type: string;
    }> = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: typeof seen; meta: { pagination: { next_cursor: string | null } } } } = await t.http
        .get(`/admin/organizations/${organization}/events`)
        .query({ limit: 7, ...(cursor ? { cursor } : {}) })
        .set(operator)
        .expect(200);
      seen.push(...res.body.data);
      cursor = res.body.meta.pagination.next_cursor;
    } while (cursor);
    const positions = seen.map((e) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
    const resources = new Set(seen.map((e) => e.resource_id));
    expect(resources).toContain(sandboxEntity);
    expect(resources).toContain(sandboxKey.id);
    expect(seen.some((e) => e.metadata.actor === 'operator')).toBe(true);
    expect(seen[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      resource_type: 'api_key',
      revision: 0,
      created: expect.any(Number),
    });
    expect(JSON.stringify(seen)).not.toMatch(/key_hash|encrypted_private_key|PRIVATE KEY/);
    const other = await t.http
      .get(`/admin/organizations/${await organizationOf(`entity-${await approvedEntity(t, KEYS.other)}`)}/events`)
      .set(operator)
      .expect(200);
    expect(other.body.data.map((e: { resource_id: string }) => e.resource_id)).not.toContain(sandboxEntity);
    await t.http.get(`/admin/organizations/${organization}/events?cursor=abc`).set(operator).expect(400);
  });

  it('takes the organization_id of GET /api-keys/current (decisions §11)', async () => {
    const current = (await t.http.get('/api-keys/current').set(bearer(KEYS.other)).expect(200)).body;
    expect(current.organization_id).toBe(await organizationOf(`api-key-${current.id}`));
    const res = await t.http
      .get(`/admin/organizations/${current.organization_id}/events`)
      .query({ limit: 100 })
      .set(operator)
      .expect(200);
    expect(res.body.data.map((e: { resource_id: string }) => e.resource_id)).toContain(current.id);
  });

  it.each([
    'nope',
    'org_x',
    'org_01arz3ndektsv4rrffq69g5fav',
    'org_01ARZ3NDEKTSV4RRFFQ69G5FAVX',
    'org_01ARZ3NDEKTSV4RRFFQ69G5FAU',
    'ent_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'org_01ARZ3NDEKTSV4RRFFQ69G5FA%20',
  ])('answers 400 naming the id for a malformed organization id: %s', async (id) => {
    const res = await t.http.get(`/admin/organizations/${id}/events`).set(operator).expect(400);
    expect(res.body).toMatchObject({
      status: 'error',
      code: 'validation_error',
      errors: [{ field: 'id', message: expect.stringContaining('organization id (org_') }],
    });
    // The credential is still checked first: without it, 401 whatever the id.
    await t.http.get(`/admin/organizations/${id}/events`).expect(401);
  });

  it('answers an empty page for a well-formed organization id that has no events', async () => {
    const res = await t.http
      .get('/admin/organizations/org_01ARZ3NDEKTSV4RRFFQ69G5FAV/events')
      .set(operator)
      .expect(200);
    expect(res.body).toEqual({ data: [], meta: { pagination: { has_more: false, next_cursor: null } } });
  });
});

describe('operator API without PAYMENTS_ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 everywhere under /admin, as an unknown route does, whatever the credential', async () => {
    const unknown = await t.http.post('/no-such-route').set(bearer(KEYS.sandbox)).send({});
    for (const [method, path] of [
      ['post', '/admin/entities/ent_01ARZ3NDEKTSV4RRFFQ69G5FAV/review'],
      ['post', '/admin/transfers/x/advance'],
      ['get', '/admin/organizations/org_x/events'],
    ] as const) {
      for (const auth of [{}, { Authorization: `Bearer ${TOKEN}` }, bearer(KEYS.live)]) {
        const res = await t.http[method](path).set(auth).send({ decision: 'approved' }).expect(404);
        expect(res.body.code).toBe(unknown.body.code);
      }
    }
  });
});

describe('PAYMENTS_ADMIN_TOKEN set but blank', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'admin-token-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (value: string | undefined) =>
    loadConfig({ DATA_DIR: dataDir, ...(value === undefined ? {} : { PAYMENTS_ADMIN_TOKEN: value }) });

  it.each([[''], [' '], ['\t'], [' '.repeat(40)], ['\n\n']])(
    'refuses to start with %j: a clear error, not an operator API silently off',
    (value) => {
      expect(() => load(value)).toThrow('PAYMENTS_ADMIN_TOKEN is set but blank');
    },
  );

  it('refuses a token the guard could never accept (whitespace inside, too short, too long); unset is no operator API', () => {
    expect(() => load(`${'a'.repeat(20)} ${'b'.repeat(20)}`)).toThrow(
      'PAYMENTS_ADMIN_TOKEN must not contain whitespace',
    );
    expect(() => load('short')).toThrow('at least 32 characters');
    expect(() => load('a'.repeat(513))).toThrow('at most 512 characters');
    expect(load(undefined).adminToken).toBeUndefined();
    expect(load(TOKEN).adminToken).toBe(TOKEN);
  });

  it('npm start exits 1 saying so, before serving anything', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'blank-admin-token-'));
    try {
      const run = spawnSync(
        process.execPath,
        [
          '-r',
          join(__dirname, '..', 'audit', 'ts-register.js'),
          join(__dirname, '..', '..', 'apps', 'api', 'src', 'main.ts'),
        ],
        {
          env: {
            ...process.env,
            LOG_LEVEL: 'info',
            DATA_DIR: dataDir,
            PORT: '0',
            PAYMENTS_ADMIN_TOKEN: '   ',
            EVENTSTORE_URL: '',
            MONGO_URL: '',
            KAFKA_BROKERS: '',
          },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(run.status).toBe(1);
      expect(run.stdout + run.stderr).toContain('PAYMENTS_ADMIN_TOKEN is set but blank');
      expect(run.stdout + run.stderr).not.toContain('payments API listening');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
