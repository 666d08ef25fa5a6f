import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { SseParser, type SseEvent } from '../../apps/listen/src/sse-parser';

/** A Server-Sent Events connection as a test sees it: every event and heartbeat position, as they come. */
export interface SseConnection {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly events: SseEvent[];
  /** The last event id after each block with an `id:` (events and heartbeats alike). */
  readonly ids: string[];
  /** The parser, for its lastEventId. */
  readonly parser: SseParser;
  /** Resolves when the server ended the response. */
  readonly ended: Promise<void>;
  /** Waits until `done` holds on the events received (or fails after `timeoutMs`). */
  until(done: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** Drops the connection, as a client that goes away. */
  close(): void;
  /** The body, for a refusal. */
  text(): string;
}

export function openStream(
  base: string,
  key: string | null,
  options: { query?: string; lastEventId?: string } = {},
): Promise<SseConnection> {
  const url = new URL(`/events/stream${options.query ? `?${options.query}` : ''}`, base);
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    const req = request(url, { headers });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const parser = new SseParser();
      const events: SseEvent[] = [];
      const ids: string[] = [];
      let raw = '';
      let seenId = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        events.push(...parser.push(chunk));
        if (parser.lastEventId !== seenId) ids.push((seenId = parser.lastEventId));
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
        res.on('error', () => done());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ids,
        parser,
        ended,
        text: () => raw,
        close: () => req.destroy(),
        until: async (done, timeoutMs = 15_000) => {
          const until = Date.now() + timeoutMs;
          while (!done(events)) {
            if (Date.now() > until)
              throw new Error(
                `stream: condition not met in ${timeoutMs} ms; got ${events.map((e) => e.event).join(', ')}`,
              );
            await new Promise((r) => setTimeout(r, 20));
          }
          return events;
        },
      });
    });
    req.end();
  });
}

/** The public events of a stream (not `ready`/`end`/`error`), parsed. */
export const bodiesOf = (events: readonly SseEvent[]) =>
  events
    .filter((e) => !['ready', 'end', 'error'].includes(e.event))
    .map((e) => ({
      ...(JSON.parse(e.data) as {
        id: string;
        event: string;
        created: number;
        entity_id: string;
        data: Record<string, any>;
      }),
      raw: e.data,
      lastEventId: e.lastEventId,
    }));
