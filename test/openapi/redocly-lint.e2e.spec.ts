import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_EVENT_CATALOGUE } from '@app/domain';
import { startTestApp, type TestApp } from '../support/test-app';
import { OpenApiDocuments } from '../../apps/api/src/openapi/docs.controller';
import type { OpenApiDocument } from '../../apps/api/src/openapi/openapi-document';

/**
 * The one deliberate exception to redocly's recommended rules lives where redocly reads it, the
 * repository's `.redocly.lint-ignore.yaml` (the 3-D Secure page's buttons answer 303: post/redirect/get).
 */
const IGNORE_FILE = join(__dirname, '..', '..', '.redocly.lint-ignore.yaml');

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}
interface Lint {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Problem[];
}

/** `redocly lint` (the CLI from npm, recommended rules, the repository's ignore file) on a document saved as openapi.json. */
function lint(doc: unknown): Lint {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    copyFileSync(IGNORE_FILE, join(dir, '.redocly.lint-ignore.yaml'));
    const run = spawnSync(
      process.execPath,
      [require.resolve('@redocly/cli/bin/cli.js'), 'lint', 'openapi.json', '--format=json'],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const json = run.stdout.slice(run.stdout.indexOf('{'));
    if (!json) throw new Error(`redocly lint printed no JSON: ${run.stderr}`);
    return JSON.parse(json) as Lint;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const described = (problems: Problem[]) =>
  problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);

/** Issue 32 item 3: the document passes `redocly lint` with its recommended rules, and types every webhook event. */
describe('the OpenAPI document under redocly lint', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await startTestApp();
    doc = t.app.get(OpenApiDocuments).document();
  }, 60_000);
  afterAll(() => t.close());

  it('is clean: no error, no warning, only the two ignored 303 answers', () => {
    const result = lint(doc);
    expect(described(result.problems)).toEqual([]);
    expect(result.totals).toEqual({ errors: 0, warnings: 0, ignored: 2 });
  }, 150_000);

  it('fails on what it was written for: empty servers, an unused component', () => {
    const broken = {
      ...doc,
      servers: [],
      components: { ...doc.components, schemas: { ...doc.components.schemas, Unused: { type: 'string' } } },
    };
    const found = described(lint(broken).problems).join('\n');
    expect(found).toContain('no-empty-servers');
    expect(found).toContain('no-unused-components');
  }, 150_000);

  it('types the payload of every catalogued webhook event in an OpenAPI 3.1 webhooks section', () => {
    const events = Object.entries(WEBHOOK_EVENT_CATALOGUE).flatMap(([group, names]) =>
      names.map((name) => `${group}.${name}`),
    );
    const webhooks = doc.webhooks as Record<
      string,
      { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }
    >;
    expect(Object.keys(webhooks).sort()).toEqual([...events].sort());
    for (const event of events) {
      const schema = webhooks[event].post.requestBody.content['application/json'].schema;
      expect(schema.properties.event).toEqual({ const: event });
      expect(schema.properties.data).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) });
    }
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });
});
