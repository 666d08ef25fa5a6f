import { signatureHeaders } from '@app/webhook-delivery/delivery/signature';
import type { ListenIo } from './listen';
import { SseParser } from './sse-parser';

/** What the relay stream's `card_authorizations.request` carries: the request's id and the exact body to POST. */
interface Relayed {
  readonly id: string;
  readonly payload: string;
}

const USER_AGENT = 'payments-listen/1.0';
/** The platform waits CARD_AUTHORIZATION_TIMEOUT_MS (2 s by default) for the answer; past 10 s nothing can still use it. */
const ANSWER_TIMEOUT_MS = 10_000;
/** As the platform keeps a response body (64 KiB). */
const MAX_BODY = 65_536;

export interface RelayOptions {
  readonly api: URL;
  readonly apiKey: string;
  readonly forwardTo: URL;
  readonly key: Buffer;
}

/**
 * Decisions §16 on a laptop, as `stripe listen` relays Issuing's authorization requests: holds
 * `GET /sandbox/card-authorization-relay` open, POSTs each `card_authorizations.request` to the
 * local endpoint signed with listen's key (as every forward), and posts the endpoint's status and
 * body back, so its answer decides the sandbox authorization. Requests are relayed concurrently:
 * each one has its own deadline on the platform side.
 */
export class AuthorizationRelay {
  constructor(
    private readonly options: RelayOptions,
    private readonly io: ListenIo,
  ) {}

  private url(path: string): URL {
    const url = new URL(this.options.api.href);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/sandbox/card-authorization-relay${path}`;
    url.search = '';
    return url;
  }

  private get auth() {
    return { authorization: `Bearer ${this.options.apiKey}`, 'user-agent': USER_AGENT };
  }

  /** Until `signal` aborts: reconnects after a drop, 1 s doubling to 30 s. */
  async run(signal: AbortSignal): Promise<void> {
    let backoff = 1_000;
    while (!signal.aborted) {
      const reason = await this.connect(signal, () => (backoff = 1_000));
      if (signal.aborted) return;
      this.io.err(`> Card authorization relay: ${reason}; reconnecting in ${backoff / 1000} s`);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, backoff);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
      });
      backoff = Math.min(backoff * 2, 30_000);
    }
  }

  private async connect(signal: AbortSignal, connected: () => void): Promise<string> {
    // A connection silent past three heartbeats is taken for dead (a laptop that slept), as the event stream's.
    const connection = new AbortController();
    let watchdog: NodeJS.Timeout | undefined;
    let quietMs = 45_000;
    const quiet = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => connection.abort(), quietMs);
    };
    try {
      quiet();
      const res = await fetch(this.url(''), {
        headers: { ...this.auth, accept: 'text/event-stream' },
        signal: AbortSignal.any([signal, connection.signal]),
      });
      if (!res.ok || !res.body)
        return `the API answered ${res.status} ${(await res.text().catch(() => '')).slice(0, 300)}`;
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        quiet();
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (event.event === 'ready') {
            quietMs = 3 * (JSON.parse(event.data) as { heartbeat_ms: number }).heartbeat_ms;
            quiet();
            connected();
            this.io.out(
              `> Relaying sandbox card authorization requests to ${this.options.forwardTo.href}: its answer decides`,
            );
          } else if (event.event === 'card_authorizations.request') void this.relay(JSON.parse(event.data) as Relayed);
        }
      }
      return 'the API closed the stream';
    } catch (error) {
      if (signal.aborted) return 'stopped';
      return connection.signal.aborted
        ? `no heartbeat for ${quietMs / 1000} s`
        : `could not reach ${this.options.api.origin}: ${(error as Error).message}`;
    } finally {
      clearTimeout(watchdog);
      connection.abort();
    }
  }

  /** One request: forwarded signed, the answer posted back; a failure is printed, and the platform's fallback decides. */
  private async relay(request: Relayed): Promise<void> {
    const { forwardTo, key } = this.options;
    this.io.out(`${this.io.clock.date().toISOString()}   --> card_authorizations.request [${request.id}]`);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(key, request.id, request.payload, this.io.clock.now()),
    };
    // The forward's duration, for the line printed: performance.now(), not the clock.
    const started = performance.now();
    let answer: { status: number; body: string };
    try {
      const res = await fetch(forwardTo, {
        method: 'POST',
        headers,
        body: request.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      answer = { status: res.status, body: (await res.text()).slice(0, MAX_BODY) };
    } catch (error) {
      this.io.out(
        `${this.io.clock.date().toISOString()}  <--  [ERR] POST ${forwardTo.href} [${request.id}]: ${(error as Error).message} (the card's fallback decides)`,
      );
      return;
    }
    this.io.out(
      `${this.io.clock.date().toISOString()}  <--  [${answer.status}] POST ${forwardTo.href} [${request.id}] (${Math.round(performance.now() - started)} ms) ${answer.body.slice(0, 200)}`,
    );
    try {
      const res = await fetch(this.url(`/${encodeURIComponent(request.id)}`), {
        method: 'POST',
        headers: { ...this.auth, 'content-type': 'application/json' },
        body: JSON.stringify(answer),
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      if (!res.ok)
        this.io.err(
          `> The answer to ${request.id} was not taken: ${res.status} ${(await res.text().catch(() => '')).slice(0, 300)}`,
        );
    } catch (error) {
      this.io.err(`> The answer to ${request.id} could not be sent: ${(error as Error).message}`);
    }
  }
}
