import pino from 'pino';
import { storage } from 'nestjs-pino/storage';

/**
 * What a log line must never carry: credentials (Authorization, API keys, tokens, secrets, the
 * master key) and card data (PAN, CVV). Request and response bodies and headers are never logged
 * (pino-http's serializers, apps/api/src/http/logging.ts), so these paths are the second guard,
 * for objects handed to the logger by code.
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

/** Lines go to stdout; a test may read them instead (`captureLogLines`). */
const stdout = pino.destination({ dest: process.stdout.fd || 1 });
let capture: ((line: string) => void) | null = null;
const destination = { write: (line: string) => (capture ? capture(line) : stdout.write(line)) };

/**
 * The process's root logger: every app, with `LOG_LEVEL` (silent under `NODE_ENV=test` unless set).
 * pino-http (nestjs-pino) makes a child of it per request, bound to the request id, then the
 * actor, organization and trace (apps/api/src/http/logging.ts).
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
 * The logger code imports. Inside a request it is that request's logger (nestjs-pino's
 * AsyncLocalStorage store), so a line logged by a handler, a command or an adapter during the
 * request carries its `request_id`, `actor`, `organization_id` and `trace_id`; elsewhere (workers,
 * start-up, timers) it is the root logger.
 */
export const logger: pino.Logger = new Proxy(rootLogger, {
  get(root, property, receiver) {
    const current = storage.getStore()?.logger as pino.Logger | undefined;
    // Outside a request, the root itself (a method called on the proxy runs on the root through it;
    // a spy set on `logger` is the root's own property, returned as set).
    if (!current || current === root) return Reflect.get(root, property, receiver);
    const value = Reflect.get(current, property, current) as unknown;
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
  },
});

export type Logger = pino.Logger;

/**
 * Adds fields to every later line of the current request (its handler logs and its completion
 * line), as nestjs-pino's `PinoLogger.assign` with `assignResponse` does; outside a request, nothing.
 */
export function assignRequestLog(fields: Record<string, unknown>): void {
  const store = storage.getStore();
  if (!store) return;
  store.logger = store.logger.child(fields);
  store.responseLogger?.setBindings(fields);
}

/**
 * Tests: every line logged until `stop()` goes to `onLine` instead of stdout, at `level` meanwhile.
 * Start it before building the app: the request logger takes the root's level when it is made.
 */
export function captureLogLines(onLine: (line: string) => void, level: pino.LevelWithSilent = 'info'): { stop(): void } {
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
