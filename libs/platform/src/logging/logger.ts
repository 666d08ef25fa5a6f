import pino from 'pino';

/**
 * One structured logger for every app. Anything that could carry a credential is redacted by
 * path, and request bodies are never logged, so PAN, CVV, keys and secrets cannot reach a log.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: {
    paths: ['authorization', 'headers.authorization', '*.authorization', 'key', '*.key', 'secret', '*.secret', 'number', 'cvv', '*.cvv'],
    censor: '***',
  },
  base: undefined,
});

export type Logger = typeof logger;
