import type { LoggerService } from '@nestjs/common';
import { logger } from '@app/platform/logging/logger';

/** Routes NestJS's own messages into the structured logger. */
export class PinoNestLogger implements LoggerService {
  log(message: unknown, context?: string) {
    logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    // Nest's ExceptionHandler passes the error itself (a start that failed): keep its stack.
    if (message instanceof Error) logger.error({ context: context ?? trace, err: message }, String(message));
    else logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    logger.trace({ context }, String(message));
  }
}
