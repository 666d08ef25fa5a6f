import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { standardWebhooksSecret } from '@app/application/webhooks';
import { bearer, KEYS, startTestApp, type TestApp } from '../support/test-app';
import type { Receiver } from './receiver';

export const TEST_CA = resolve(__dirname, '..', 'fixtures', 'tls', 'ca.crt');

/**
 * Node reads NODE_EXTRA_CA_CERTS once, at process start; `npm test` sets it. Run another way,
 * the receiver's certificate is not trusted, and this says so instead of failing obscurely.
 */
export function requireTestCa(): void {
  if (!process.env.NODE_EXTRA_CA_CERTS || resolve(process.env.NODE_EXTRA_CA_CERTS) !== TEST_CA) {
    throw new Error(
      `start Jest with NODE_EXTRA_CA_CERTS=${TEST_CA} (npm test does) so the worker trusts the test receiver`,
    );
  }
}

/** Worker settings read from the environment when an app is built: short, so retries happen within a test. */
export function fastWorkerEnv(overrides: Record<string, string> = {}): () => void {
  const values = { WEBHOOK_TIMEOUT_MS: '800', WEBHOOK_SCHEDULER_INTERVAL_MS: '50', ...overrides };
  const previous = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  return () => {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

export const startWebhookApp = (env: Record<string, string> = {}, dataDir?: string) =>
  startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,400,400', ...env }, dataDir);

/** Creates a webhook whose deliveries the receiver verifies on `path`. */
export async function webhookTo(
  t: TestApp,
  receiver: Receiver,
  path: string,
  body: Record<string, unknown>,
  key: string = KEYS.sandbox,
) {
  const secret = `secret-for-${path}-0123456789`;
  const res = await t.http
    .post('/entity-webhooks')
    .set(bearer(key))
    .send({ url: receiver.url(path), secret, ...body });
  if (res.status !== 201) throw new Error(`create webhook failed: ${res.status} ${JSON.stringify(res.body)}`);
  // The creation response's signing_secret is the Standard Webhooks key of the secret (decisions §9).
  if (res.body.signing_secret !== standardWebhooksSecret(secret))
    throw new Error(`signing_secret ${res.body.signing_secret} is not the key of ${secret}`);
  receiver.expect(path, res.body.signing_secret);
  return res.body as { id: string; entity_id: string; status: string };
}

export async function logsOf(t: TestApp, entityId: string, query: Record<string, string> = {}) {
  const res = await t.http
    .get('/webhook-logs')
    .query({ entity_id: entityId, limit: '100', ...query })
    .set(bearer(KEYS.sandbox));
  if (res.status !== 200) throw new Error(`logs failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Array<Record<string, any>>;
}

/** Polls until `done` holds; returns the last value either way so the assertion shows what was seen. */
export async function eventually<T>(
  probe: () => Promise<T> | T,
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

/** A row of the embedded delivery store (DATA_DIR/deliveries.db), as the worker left it. */
export interface StoredDelivery {
  readonly id: string;
  readonly webhook_id: string;
  readonly event: string;
  readonly payload: string;
  readonly status: string;
  readonly attempts: number;
  readonly cancel_reason: string | null;
}

/** What the router scheduled and how each delivery stands: read from the delivery store, never the log. */
export function storedDeliveries(dataDir: string): StoredDelivery[] {
  const db = new Database(join(dataDir, 'deliveries.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT id, webhook_id, event, payload, status, attempts, cancel_reason FROM deliveries ORDER BY id')
      .all() as StoredDelivery[];
  } finally {
    db.close();
  }
}
