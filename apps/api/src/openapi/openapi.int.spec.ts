import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { startTestApp, type TestApp } from '../../../../test/support/test-app';
import { OpenApiDocuments } from './docs.controller';
import type { OpenApiDocument } from './openapi-document';
import { toTemplate } from './route-facts';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** @seriousme/openapi-schema-validator (ESM only, so in a child process): the document against the OpenAPI 3.1 schema, every $ref resolved. */
function validateWithSchema(doc: unknown): { valid: boolean; version: string; errors: unknown; refs: string | null } {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/openapi/validate-document.mjs')], {
    input: JSON.stringify(doc),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (!run.stdout) throw new Error(`validate-document.mjs: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** `METHOD /template` of every route the Express router serves. */
function servedRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance();
  const stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> = express.router.stack;
  return stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== '_all')
          .map((m) => `${m.toUpperCase()} ${toTemplate(layer.route!.path)}`)
      : [],
  );
}

/**
 * Issue 22, part 1: the OpenAPI 3.1 document built from the app's controllers and DTOs is valid
 * (a real validator), complete (every route the router serves), served at /openapi.json, and the
 * docs page at /docs loads only the API's own assets.
 */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await startTestApp();
    doc = t.app.get(OpenApiDocuments).document();
  }, 60_000);
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', () => {
    const result = validateWithSchema(doc);
    expect(result).toEqual({ valid: true, version: '3.1', errors: null, refs: null });
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is refused by the validator once broken, so an invalid document fails npm test', () => {
    const broken = JSON.parse(JSON.stringify(doc)) as OpenApiDocument;
    broken.paths['/transfers'].get.responses['200'] = {
      description: 'x',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Nowhere' } } },
    };
    expect(validateWithSchema(broken).valid).toBe(false);
    const noInfo = { ...doc, info: undefined };
    expect(validateWithSchema(noInfo).valid).toBe(false);
  });

  it('describes every route the router serves, and nothing else', () => {
    const served = servedRoutes(t.app).sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(served.length).toBeGreaterThan(80);
    expect(served.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !served.includes(r))).toEqual([]);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.filter((id, i) => !id || ids.indexOf(id) !== i)).toEqual([]);
  });

  it('states who may call each route: API key, entity token, operator, or nobody in particular', () => {
    const security = (method: string, path: string) => doc.paths[path][method].security;
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['api_key', 'entity_token', 'operator']);
    expect(security('post', '/transfer')).toEqual([{ api_key: [] }, { entity_token: [] }]);
    expect(security('post', '/api-keys')).toEqual([{ api_key: [] }]);
    expect(security('get', '/events')).toEqual([{ api_key: [] }]);
    expect(security('post', '/admin/accounts/{id}/inflows')).toEqual([{ operator: [] }]);
    for (const path of ['/health', '/openapi.json', '/docs', '/3ds/{id}']) expect(security('get', path)).toEqual([]);
  });

  it('carries the error envelope with its statuses, both list styles, Idempotency-Key, Idempotent-Replayed and Retry-After', () => {
    const create = doc.paths['/transfer'].post;
    expect(Object.keys(create.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.responses['201'].headers).toHaveProperty('Idempotent-Replayed');
    expect(JSON.stringify(create.responses['409'])).toContain('DuplicateTransferError');
    expect(doc.components.responses.RateLimited).toMatchObject({
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    });
    expect(JSON.stringify(doc.paths['/transfers'].get.responses['200'])).toContain('#/components/schemas/StyleAMeta');
    expect(JSON.stringify(doc.paths['/payment-intents'].get.responses['200'])).toContain(
      '#/components/schemas/StyleBPagination',
    );
    expect(doc.paths['/transfers'].get.responses['503']).toBeDefined();
    expect(
      doc.paths['/transfers'].get.parameters?.some(
        (p) => p.name === 'Idempotency-Key' || p.$ref === '#/components/parameters/IdempotencyKey',
      ),
    ).toBe(false);
    expect(doc.paths['/transfers'].get.parameters).toContainEqual({ $ref: '#/components/parameters/PaymentsVersion' });
  });

  it('is served at /openapi.json without a credential', async () => {
    const res = await t.http
      .get('/openapi.json')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('has a docs page at /docs whose scripts and styles all come from the API itself', async () => {
    const page = await t.http
      .get('/docs')
      .expect(200)
      .expect('content-type', /text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
    const urls = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      expect(url).toMatch(/^\/docs\/[\w.-]+$/);
      const asset = await t.http.get(url).expect(200);
      expect(asset.headers['content-type']).toMatch(/^(text\/javascript|text\/css|image\/png)/);
    }
    const init = await t.http.get('/docs/swagger-initializer.js').expect(200);
    expect(init.text).toContain("url: '/openapi.json'");
    await t.http.get('/docs/package.json').expect(404);
  });
});
