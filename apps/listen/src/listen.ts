import { createHmac } from 'node:crypto';
import { signatureHeaders } from '@app/webhook-delivery/delivery/signature';
import type { Clock } from '@app/platform/clock';
import type { ListenOptions } from './listen-args';
import { SseParser, type SseEvent } from './sse-parser';
import { AuthorizationRelay } from './relay';

export interface ListenIo {
  /** One line for the developer (stdout). */
  out(line: string): void;
  /** One line about the connection or a failure (stderr). */
  err(line: string): void;
  /** The time signatures carry and lines print (systemClock in main.ts). */
  readonly clock: Clock;
}

/** The `ready` event's data: the stream's world and where it starts. */
interface Ready {
  readonly organization_id: string;
  readonly mode: 'sandbox' | 'live';
  readonly after_position: number;
  readonly heartbeat_ms: number;
}

const USER_AGENT = 'payments-listen/1.0';
/** Decisions §9: a delivery attempt times out after 10 s; a forward does too. */
const FORWARD_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * The Standard Webhooks key the deliveries are signed with: derived from the API key (HMAC, so
 * it reveals nothing of the key), so it stays the same from one run to the next as long as the key
 * does, and a receiver configured once keeps verifying.
 */
export function signingKeyFor(apiKey: string): Buffer {
  return createHmac('sha256', apiKey).update('payments listen: webhook signing key v1').digest();
}

export const whsecOf = (key: Buffer): string => `whsec_${key.toString('base64')}`;

/** Outcome of one connection: go on (reconnect), or stop with an exit status. */
type Outcome =
  { readonly reconnect: true; readonly reason: string } | { readonly reconnect: false; readonly status: number };

/**
 * `npm run listen`: follows GET /events/stream and forwards each event, in order and one at a
 * time (the next waits for the endpoint's answer, as deliveries of one resource do), reconnecting
 * with Last-Event-ID when the connection drops or goes quiet past three heartbeats.
 */
export class Listener {
  private readonly key: Buffer;
  private lastEventId: string | null;
  /** The current connection said `ready`; the banner was printed once. */
  private ready = false;
  private announced = false;

  constructor(
    private readonly options: ListenOptions,
    private readonly io: ListenIo,
  ) {
    this.key = signingKeyFor(options.apiKey);
    this.lastEventId = options.afterPosition === null ? null : String(options.afterPosition);
  }

  get signingSecret(): string {
    return whsecOf(this.key);
  }

  /**
   * Runs until `signal` aborts (status 0) or the API refuses the key (1). With `--forward-to` and a
   * sandbox key it also relays card authorization requests (decisions §16, relay.ts) meanwhile.
   */
  async run(signal: AbortSignal): Promise<number> {
    const { forwardTo, apiKey, api } = this.options;
    if (!forwardTo || !apiKey.startsWith('sk_test_')) return this.follow(signal);
    const stop = new AbortController();
    const relayed = new AuthorizationRelay({ api, apiKey, forwardTo, key: this.key }, this.io).run(
      AbortSignal.any([signal, stop.signal]),
    );
    try {
      return await this.follow(signal);
    } finally {
      stop.abort();
      await relayed;
    }
  }

  private async follow(signal: AbortSignal): Promise<number> {
    let backoff = 1_000;
    while (!signal.aborted) {
      const outcome = await this.connect(signal);
      if (signal.aborted) return 0;
      if (!outcome.reconnect) return outcome.status;
      if (this.ready) backoff = 1_000;
      this.io.err(
        `> ${outcome.reason}; reconnecting in ${backoff / 1000} s${this.lastEventId ? ` (resuming after position ${this.lastEventId})` : ''}`,
      );
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      this.ready = false;
    }
    return 0;
  }

  private streamUrl(): URL {
    const url = new URL(this.options.api.href);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/events/stream`;
    url.search = '';
    return url;
  }

  private async connect(signal: AbortSignal): Promise<Outcome> {
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener('abort', abort, { once: true });
    let watchdogMs = 45_000;
    let watchdog: NodeJS.Timeout | null = null;
    const quiet = () => {
      if (watchdog) clearTimeout(watchdog);
      watchdog = setTimeout(() => connection.abort(new Error('no heartbeat')), watchdogMs);
    };
    try {
      quiet();
      const headers: Record<string, string> = {
        authorization: `Bearer ${this.options.apiKey}`,
        accept: 'text/event-stream',
        'user-agent': USER_AGENT,
      };
      if (this.lastEventId !== null) headers['last-event-id'] = this.lastEventId;
      const res = await fetch(this.streamUrl(), { headers, signal: connection.signal });
      if (!res.ok || !res.body) return await this.refused(res);
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (watchdog) clearTimeout(watchdog);
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          const stop = await this.handle(event, (ms) => (watchdogMs = ms * 3));
          if (stop) return stop;
          if (event.lastEventId) this.lastEventId = event.lastEventId;
        }
        // A heartbeat's id moves the position without an event.
        if (parser.lastEventId) this.lastEventId = parser.lastEventId;
        quiet();
      }
      return { reconnect: true, reason: 'The API closed the stream' };
    } catch (error) {
      if (signal.aborted) return { reconnect: false, status: 0 };
      const reason = connection.signal.aborted
        ? `No heartbeat for ${watchdogMs / 1000} s`
        : `Could not reach ${this.options.api.origin}: ${describe(error)}`;
      return { reconnect: true, reason };
    } finally {
      if (watchdog) clearTimeout(watchdog);
      signal.removeEventListener('abort', abort);
      connection.abort();
    }
  }

  /** 401, 403 and 400 are final (the key or the request is wrong); anything else is worth another try. */
  private async refused(res: Response): Promise<Outcome> {
    const text = await res.text().catch(() => '');
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not the error envelope: show the text
    }
    if ([400, 401, 403].includes(res.status)) {
      this.io.err(`The API refused the stream: ${res.status} ${message}`);
      return { reconnect: false, status: 1 };
    }
    return { reconnect: true, reason: `The API answered ${res.status} ${message}` };
  }

  /** Null to go on; an outcome ends the connection. */
  private async handle(event: SseEvent, heartbeat: (ms: number) => void): Promise<Outcome | null> {
    if (event.event === 'ready') {
      const ready = JSON.parse(event.data) as Ready;
      heartbeat(ready.heartbeat_ms);
      this.announce(ready);
      return null;
    }
    if (event.event === 'error')
      return {
        reconnect: true,
        reason: `The stream failed: ${(JSON.parse(event.data) as { message?: string }).message ?? event.data}`,
      };
    if (event.event === 'end') return { reconnect: true, reason: 'The stream ended' };
    const body = JSON.parse(event.data) as { id: string; event: string };
    if (this.options.events && !this.options.events.has(body.event)) return null;
    this.io.out(`${timestamp(this.io.clock.date())}   --> ${body.event} [${body.id}]`);
    if (this.options.printJson) this.io.out(JSON.stringify(JSON.parse(event.data), null, 2));
    if (this.options.forwardTo) await this.forward(body.id, event.data);
    return null;
  }

  /** The banner once; after a reconnection, a line saying where it resumed. */
  private announce(ready: Ready): void {
    this.ready = true;
    if (this.announced) {
      this.io.err(`> Reconnected, resuming after position ${ready.after_position}`);
      return;
    }
    this.announced = true;
    this.io.out(
      `> Ready! Listening to ${ready.mode} events of ${ready.organization_id} on ${this.options.api.origin} (API key …${this.options.apiKey.slice(-4)}), after position ${ready.after_position}`,
    );
    if (ready.mode === 'live') this.io.out('> LIVE mode: these are events of real money');
    this.io.out(
      this.options.forwardTo
        ? `> Forwarding each event to ${this.options.forwardTo.href}`
        : '> Printing events only (--forward-to URL forwards them)',
    );
    this.io.out(`> Your webhook signing secret is ${this.signingSecret} (^C to quit)`);
  }

  /** POSTs the body exactly as received, signed as a delivery: webhook-id is the event id, as on every real attempt. */
  private async forward(id: string, body: string): Promise<void> {
    const url = this.options.forwardTo!;
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(this.key, id, body, this.io.clock.now()),
    };
    // The request's duration, for the line printed: performance.now(), not the clock.
    const started = performance.now();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await res.body?.cancel();
      this.io.out(
        `${timestamp(this.io.clock.date())}  <--  [${res.status}] POST ${url.href} [${id}] (${Math.round(performance.now() - started)} ms)`,
      );
    } catch (error) {
      this.io.out(`${timestamp(this.io.clock.date())}  <--  [ERR] POST ${url.href} [${id}]: ${describe(error)}`);
    }
  }
}

function timestamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** fetch failures hide the reason in `cause` (ECONNREFUSED, a certificate, a timeout). */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
