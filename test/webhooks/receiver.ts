import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

const TLS = join(__dirname, '..', 'fixtures', 'tls');

export interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly payload: {
    id: string;
    event: string;
    created: number;
    entity_id: string;
    test?: boolean;
    data: Record<string, unknown>;
  };
}

/** What the receiver answers the n-th request (from 1) on a path: a status, maybe after a delay. */
export type Responder = (path: string, n: number) => { status: number; delayMs?: number };

/**
 * A real HTTPS endpoint on 127.0.0.1 with a certificate from the test-only CA (trusted by the
 * worker through NODE_EXTRA_CA_CERTS). Every request is verified with the `standardwebhooks`
 * package against the secret registered for its path; one that fails verification is recorded
 * in `rejected`, answered 400, and fails the test that checks `rejected`.
 */
export class Receiver {
  readonly received: Received[] = [];
  readonly rejected: { path: string; reason: string }[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private server: Server | null = null;
  /** Answers held back by a responder's delay, dropped on close. */
  private readonly delayed = new Set<NodeJS.Timeout>();
  responder: Responder = () => ({ status: 200 });

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.listen();
    return receiver;
  }

  private listen(): Promise<void> {
    this.server = createServer(
      { key: readFileSync(join(TLS, 'server.key')), cert: readFileSync(join(TLS, 'server.crt')) },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const path = (req.url ?? '/').split('?')[0];
          const body = Buffer.concat(chunks).toString('utf8');
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
          const secret = this.secrets.get(path);
          try {
            if (!secret) throw new Error(`no secret registered for ${path}`);
            const payload = new Webhook(secret).verify(body, headers) as Received['payload'];
            this.received.push({ path, headers, body, payload });
          } catch (err) {
            this.rejected.push({ path, reason: (err as Error).message });
            res.writeHead(400).end('signature rejected');
            return;
          }
          const n = (this.counts.get(path) ?? 0) + 1;
          this.counts.set(path, n);
          const { status, delayMs = 0 } = this.responder(path, n);
          const answer = () => {
            if (!res.destroyed)
              res
                .writeHead(status, { 'content-type': 'text/plain', 'set-cookie': 'session=abc' })
                .end(`answer ${n} from ${path}`);
          };
          if (!delayMs) return answer();
          const timer = setTimeout(() => (this.delayed.delete(timer), answer()), delayMs);
          this.delayed.add(timer);
        });
      },
    );
    return new Promise((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
  }

  /** Registers the Standard Webhooks secret (`whsec_…`) the deliveries to `path` must verify with. */
  expect(path: string, whsec: string): void {
    this.secrets.set(path, whsec);
  }

  url(path: string, query = ''): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}${query}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
