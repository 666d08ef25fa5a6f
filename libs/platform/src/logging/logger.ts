import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/**
 * What a log line must never carry: credentials (Authorization, API keys, tokens, secrets, the
 * master key) and card data (PAN, CVV). Request and response bodies and headers are never logged
 * (the request log writes method, path and status: apps/api/src/http/logging.ts), so these paths are the second guard,
 * for objects handed to the logger by code. pino compiles them once, when the root logger is made;
 * a child shares the root's compiled redaction.
 */
export const REDACTED_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
  'key',
  '*.key',
  'api_key',
  '*.api_key',
  'secret',
  '*.secret',
  'signing_secret',
  '*.signing_secret',
  'token',
  '*.token',
  'password',
  '*.password',
  'masterKey',
  '*.masterKey',
  'adminToken',
  '*.adminToken',
  'number',
  'card_number',
  '*.card_number',
  'cvv',
  '*.cvv',
];

/**
 * Lines go to stdout; a test may read them instead (`captureLogLines`). Written asynchronously
 * (sonic-boom, `sync: false`): a line costs a string append, and lines logged while a write is in
 * flight go out together in the next one, rather than one blocking write(2) per line on the event
 * loop (issue 28). pino flushes what is pending synchronously on the process's `exit`
 * (on-exit-leak-free), so a shutdown's or a crash's last lines are written.
 */
const stdout = pino.destination({ dest: process.stdout.fd || 1, sync: false });
let capture: ((line: string) => void) | null = null;
const destination = { write: (line: string) => (capture ? capture(line) : stdout.write(line)) };

/**
 * The process's root logger: every app, with `LOG_LEVEL` (silent under `NODE_ENV=test` unless set).
 * A request's lines carry its fields (request id, trace, actor, organization: `runWithRequestLog`).
 */
export const rootLogger = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    redact: { paths: REDACTED_PATHS, censor: '***' },
    base: undefined,
  },
  destination,
);

/**
 * The request log's one line per request (apps/api/src/http/logging.ts), gated by the root's level:
 * its fields are a fixed set of scalars written by our own code (ids, actor, status, path, time),
 * none of them a redacted path, so the 27 paths are not searched on every request (issue 28: a
 * twentieth of a request's CPU). Whatever else code logs goes through the root and its redaction.
 */
export const requestLineLogger = pino({ level: 'trace', base: undefined }, destination);

/**
 * A request's log fields, from the request logger (apps/api/src/http/logging.ts) and whoever adds
 * to them during the request (`assignRequestLog`), and the child logger bound to them, made only
 * when code logs during the request: most requests log nothing but their completion line, and a
 * pino child per request (its bindings serialized at creation) was a tenth of the API's CPU on a
 * payout (issue 28).
 */
interface RequestLog {
  readonly fields: Record<string, unknown>;
  logger?: pino.Logger;
}

const requestLogs = new AsyncLocalStorage<RequestLog>();

/** Runs `next` (the rest of the request's middleware and handler) with `fields` as its log fields. */
export function runWithRequestLog(fields: Record<string, unknown>, next: () => void): Record<string, unknown> {
  requestLogs.run({ fields }, next);
  return fields;
}

/**
 * The logger code imports. Inside a request it writes through that request's child logger, so a
 * line logged by a handler, a command or an adapter during the request carries its `request_id`,
 * `actor`, `organization_id` and `trace_id`; elsewhere (workers, start-up, timers) it is the root
 * logger.
 */
export const logger: pino.Logger = new Proxy(rootLogger, {
  get(root, property, receiver) {
    const request = requestLogs.getStore();
    // Outside a request, the root itself (a method called on the proxy runs on the root through it;
    // a spy set on `logger` is the root's own property, returned as set).
    if (!request) return Reflect.get(root, property, receiver);
    const current = (request.logger ??= root.child(request.fields));
    const value = Reflect.get(current, property, current) as unknown;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
  },
});

export type Logger = pino.Logger;

/**
 * Adds fields to every later line of the current request (its handler logs and its completion
 * line); outside a request, nothing.
 */
export function assignRequestLog(fields: Record<string, unknown>): void {
  const request = requestLogs.getStore();
  if (!request) return;
  Object.assign(request.fields, fields);
  // The child's bindings were serialized when it was made: the next line makes one with every field.
  request.logger = undefined;
}

/**
 * Tests: every line logged until `stop()` goes to `onLine` instead of stdout, at `level` meanwhile.
 * Start it before building the app: the request logger takes the root's level when it is made.
 */
export function captureLogLines(
  onLine: (line: string) => void,
  level: pino.LevelWithSilent = 'info',
): { stop(): void } {
  const previous = rootLogger.level;
  rootLogger.level = level;
  capture = onLine;
  return {
    stop() {
      capture = null;
      rootLogger.level = previous;
    },
  };
}
