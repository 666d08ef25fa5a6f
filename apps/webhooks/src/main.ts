import 'reflect-metadata';
import { createServer } from 'node:http';
import { describeAdapters } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { logger } from '@app/platform/logging/logger';
import { createWebhookWorker } from './worker.factory';

/**
 * `npm run start:webhooks`: the delivery worker as its own process (consumer group `webhooks`).
 * Like the projector and publisher it answers GET /health on PORT for probes; it serves no API.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Shutdown hooks (SIGTERM) let attempts in flight finish and leave the consumer group.
  await createWebhookWorker(config);
  const health = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/health') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', process: 'webhooks', adapters: describeAdapters(config) }));
  });
  await new Promise<void>((resolve) => health.listen(config.port, resolve));
  logger.info({ port: config.port, data_dir: config.dataDir, adapters: describeAdapters(config) }, 'webhook worker running');
}

main().catch((err) => {
  logger.fatal({ err }, 'webhook worker failed to start');
  process.exit(1);
});
