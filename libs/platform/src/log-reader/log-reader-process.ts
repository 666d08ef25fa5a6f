import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describeAdapters } from '../adapters';
import { loadConfig, type PlatformConfig } from '../config/platform-config';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { logger } from '../logging/logger';
import { PinoNestLogger } from '../logging/pino-nest-logger';
import { PlatformLifecycle, PlatformModule, type PlatformRoles } from '../platform.module';
import type { Projection } from '../read-store/projection';

/** Only the platform: adapters and the log readers `roles` turns on; no controllers, no HTTP app. */
@Module({})
class LogReaderModule {
  static forRoot(roles: PlatformRoles, config: PlatformConfig, projections: readonly Projection[]): DynamicModule {
    return { module: LogReaderModule, imports: [PlatformModule.forRoot(roles, config, projections)] };
  }
}

/**
 * A process that reads the log in the background: the projector (read models) or the publisher
 * (the bus), each its own deployment of one replica. It answers GET /health on PORT for probes,
 * and exits when its reader stops on an error, so that its supervisor starts it again from the
 * checkpoint (the reader's writes are replay-safe).
 */
export async function runLogReader(name: 'projector' | 'publisher', roles: PlatformRoles, projections: readonly Projection[] = []): Promise<void> {
  const config = loadConfig();
  // The context is initialised here: the readers have started before this line returns.
  const app = await NestFactory.createApplicationContext(LogReaderModule.forRoot(roles, config, projections), { logger: new PinoNestLogger() });
  app.enableShutdownHooks();
  const lifecycle = app.get(PlatformLifecycle);
  const store = app.get<EventStore>(EVENT_STORE);
  let failed: string | null = null;
  let health: Server | null = null;
  lifecycle.onFailure((component) => {
    failed = component;
    health?.close();
    void app.close().finally(() => process.exit(1));
  });
  health = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/health') return void res.writeHead(404).end();
    void store.headPosition().then(
      (head) => {
        const position = name === 'projector' ? lifecycle.projector.lastPosition : lifecycle.publisher.lastPosition;
        const body = { status: failed ? 'failed' : 'ok', process: name, adapters: describeAdapters(config), log: { head, [name === 'projector' ? 'projected' : 'published']: position } };
        res.writeHead(failed ? 503 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve) => health!.listen(config.port, resolve));
  logger.info({ process: name, port: config.port, adapters: describeAdapters(config) }, `${name} running`);
}

export function exitOnStartupFailure(err: unknown): never {
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
