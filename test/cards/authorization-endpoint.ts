import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { KEYS, bearer, type TestApp } from '../support/test-app';

const TLS = join(__dirname, '..', 'fixtures', 'tls');

export interface AskedRequest {
  readonly path: string;
  readonly payload: { id: string; event: string; created: number; entity_id: string; data: Record<string, any> };
}

/** The endpoint's answer on a path: a status and a body (JSON when an object), or none at all (`hang`). */
export type Answer = { status: number; body: unknown } | 'hang';

/**
 * A card program's authorization endpoint (decisions §16): a real HTTPS server on 127.0.0.1 with a
 * certificate of the test CA, verifying every request with `standardwebhooks` against the secret
 * of its path (a request that does not verify lands in `rejected` and is answered 400), and
 * answering what the test set for the path. `hang` never answers (until close).
 */
export class AuthorizationEndpoint {
  readonly asked: AskedRequest[] = [];
  readonly rejected: string[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly answers = new Map<string, Answer>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;

  static async start(): Promise<AuthorizationEndpoint> {
    const endpoint = new AuthorizationEndpoint();
    endpoint.server = createServer(
      { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.crt')) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () =>
          endpoint.handle(
            (req.url ?? '/').split('?')[0],
            Buffer.concat(chunks).toString('utf8'),
            req.headers as Record<string, string>,
            res,
          ),
        );
      },
    );
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  private handle(path: string, body: string, headers: Record<string, string>, res: ServerResponse) {
    try {
      const payload = new Webhook(this.secrets.get(path) ?? 'whsec_bm9uZQ==').verify(
        body,
        headers,
      ) as AskedRequest['payload'];
      this.asked.push({ path, payload });
    } catch (err) {
      this.rejected.push(`${path}: ${(err as Error).message}`);
      res.writeHead(400).end('signature rejected');
      return;
    }
    const answer = this.answers.get(path) ?? { status: 200, body: { approved: true } };
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  }

  /** Verifies requests on `path` with `secret` (e.g. `npm run listen`'s, which signs what it relays). */
  trust(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  answer(path: string, answer: Answer): void {
    this.answers.set(path, answer);
  }

  on(path: string): AskedRequest[] {
    return this.asked.filter((a) => a.path === path);
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /**
   * Subscribes a webhook of `entity` to `card_authorizations.request` at `path` and registers its
   * signing secret; returns the creation's response (201, or the refusal).
   */
  async subscribe(
    t: TestApp,
    entity: string,
    path: string,
    enabled_events: Record<string, unknown> = { card_authorizations: ['request'] },
  ) {
    const res = await t.http
      .post('/entity-webhooks')
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, url: this.url(path), secret: `secret-for-${path}-0123456789`, enabled_events });
    if (res.status === 201) this.secrets.set(path, res.body.signing_secret);
    return res;
  }

  close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
