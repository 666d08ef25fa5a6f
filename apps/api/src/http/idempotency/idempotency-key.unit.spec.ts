import { DomainException } from '@app/application/command-handling';
import { domainError } from '@app/domain';
import { canonicalJson, fingerprintOf, parseIdempotencyKey, scopeOf } from './idempotency-key';
import { isStored } from './idempotency.interceptor';

describe('Idempotency-Key values (decisions §13)', () => {
  it('takes 1-255 visible ASCII characters and refuses anything else with 400 invalid_idempotency_key', () => {
    for (const ok of [
      'a',
      '~',
      'k'.repeat(255),
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '!#$%&()*+,-./:;<=>?@[]^_`{|}',
    ])
      expect(parseIdempotencyKey(ok)).toBe(ok);
    for (const bad of ['', 'k'.repeat(256), 'a b', 'a\tb', 'clé', 'a\u0000', 'a\u007f', ' a', ['a', 'b']]) {
      expect(parseIdempotencyKey(bad)).toMatchObject({ kind: 'validation', code: 'invalid_idempotency_key' });
    }
  });
});

describe('scopes', () => {
  const base = { organizationId: 'org_1', id: 'key_1' } as const;
  it('is the organization and mode for every API key, and adds the entity for an entity token', () => {
    expect(scopeOf({ ...base, kind: 'api_key', mode: 'sandbox' })).toBe('org_1:sandbox');
    expect(scopeOf({ ...base, kind: 'api_key', id: 'key_2', mode: 'sandbox' })).toBe('org_1:sandbox');
    expect(scopeOf({ ...base, kind: 'api_key', mode: 'live' })).toBe('org_1:live');
    expect(scopeOf({ ...base, kind: 'entity_token', mode: 'sandbox', entityId: 'ent_1' })).toBe(
      'org_1:sandbox:entity:ent_1',
    );
  });
});

describe('fingerprints', () => {
  const req = {
    method: 'POST',
    url: '/accounts',
    body: { entity_id: 'ent_1', currency: 'USD', nested: { b: 1, a: [1, { y: 2, x: 1 }] } },
  };
  it('ignore key order; any change of method, path, query or value is another request', () => {
    const same = { ...req, body: { nested: { a: [1, { x: 1, y: 2 }], b: 1 }, currency: 'USD', entity_id: 'ent_1' } };
    expect(fingerprintOf(same)).toBe(fingerprintOf(req));
    for (const other of [
      { ...req, method: 'PATCH' },
      { ...req, url: '/accounts?x=1' },
      { ...req, body: { ...req.body, currency: 'EUR' } },
      { ...req, body: { ...req.body, nested: { b: 1, a: [{ y: 2, x: 1 }, 1] } } },
      { ...req, body: undefined },
    ]) {
      expect(fingerprintOf(other)).not.toBe(fingerprintOf(req));
    }
  });

  it('cover an uploaded file by its content', () => {
    const file = (text: string) => ({
      fieldname: 'file',
      originalname: 'a.pdf',
      mimetype: 'application/pdf',
      buffer: Buffer.from(text),
    });
    expect(fingerprintOf({ ...req, file: file('one') })).toBe(fingerprintOf({ ...req, file: file('one') }));
    expect(fingerprintOf({ ...req, file: file('one') })).not.toBe(fingerprintOf({ ...req, file: file('two') }));
  });

  it('canonical JSON walks deep bodies without recursion', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = { [`k${i % 3}`]: deep, a: [i] };
    expect(canonicalJson(deep).length).toBeGreaterThan(100_000);
    expect(canonicalJson({ b: [1, 'x', null, true], a: { d: 1.5, c: '\u00e9' } })).toBe(
      '{"a":{"c":"é","d":1.5},"b":[1,"x",null,true]}',
    );
  });
});

describe('which answers are stored', () => {
  const failure = (kind: Parameters<typeof domainError>[0], code: string) =>
    new DomainException(domainError(kind, code, 'm'));
  it('stores 2xx, 409 conflicts and 422 rules; not validation errors (400 or 422), 401, 403, 404, 413, 429, 409 in use or 5xx', () => {
    expect([200, 201, 204].map((s) => isStored(s, undefined))).toEqual([true, true, true]);
    expect(isStored(409, failure('conflict', 'duplicate_unique_reference'))).toBe(true);
    expect(isStored(422, failure('rule', 'insufficient_funds'))).toBe(true);
    expect(isStored(422, failure('rule', 'validation_error'))).toBe(false);
    expect(isStored(409, failure('conflict', 'idempotency_key_in_use'))).toBe(false);
    for (const status of [400, 401, 403, 404, 413, 429, 500, 502, 503]) expect(isStored(status, undefined)).toBe(false);
  });
});
