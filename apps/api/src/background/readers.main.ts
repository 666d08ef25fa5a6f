import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ProcessManagerRunners } from '@app/application/process-managers';
import { loadConfig } from '@app/platform/config/platform-config';
import { processSignals } from '@app/platform/log-reader/process-signals';
import { logger } from '@app/platform/logging/logger';
import { PinoNestLogger } from '@app/platform/logging/pino-nest-logger';
import { PlatformLifecycle, type PlatformRoles } from '@app/platform/platform.module';
import { AppModule } from '../app.module';
import type { FromReaders, ToReaders } from './reader-messages';

/** Everything that reads the log in the background; the API beside it runs none of it. */
export const READERS_ROLES: PlatformRoles = { projector: true, publisher: true, processManagers: true, webhooks: true };

/**
 * The readers process `npm start` forks (readers-supervisor.ts): the API's modules without HTTP,
 * so that process managers send the same commands through the same handlers. It exits when a
 * reader fails or when the API goes away, and the supervisor starts it again.
 */
async function main(): Promise<void> {
  // Once the API has gone, nothing is told (a send on a closed channel would be an 'error' event).
  const send = (message: FromReaders) => void (process.connected && process.send?.(message));
  // One writer per log file: this process's appends are committed by the API's writer.
  const config = { ...loadConfig(), appendThroughParent: true };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, READERS_ROLES), { logger: new PinoNestLogger() });
  const lifecycle = app.get(PlatformLifecycle);
  const runners = app.get(ProcessManagerRunners);
  let closing = false;
  const exit = (code: number) => {
    if (closing) return;
    closing = true;
    void app.close().finally(() => process.exit(code));
  };
  lifecycle.onFailure(() => exit(1));
  process.on('SIGTERM', () => exit(0));
  process.on('SIGINT', () => exit(0));
  // The API died (even by SIGKILL): no one relays its commits or restarts us, so stop.
  process.on('disconnect', () => exit(0));
  process.on('message', (message: ToReaders) => {
    if (message.type === 'appended') processSignals.siblingAppended.notify();
    else if (message.type === 'status') send({ type: 'status', id: message.id, report: { projected: lifecycle.projector.lastPosition, published: lifecycle.publisher.lastPosition, process_managers: runners.status() } });
  });
  // After each projector batch, so the API's read-your-writes waiters look at once.
  lifecycle.projector.onBatch(() => send({ type: 'projected' }));
  send({ type: 'ready' });
}

main().catch((err) => {
  logger.fatal({ err, component: 'readers' }, 'readers process failed to start');
  process.exit(1);
});
