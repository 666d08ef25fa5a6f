import type { LoggerService } from '@nestjs/common';
import { logger } from '@app/platform/logging/logger';

/** Routes NestJS's own messages into the structured logger. */
export class PinoNestLogger implements LoggerService {
  log(message: unknown, context?: string) {
    logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    logger.error({ context, trace }, String(message));
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
