import 'reflect-metadata';
import { describeAdapters } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { logger } from '@app/platform/logging/logger';
import { createWebhookWorker } from './worker.factory';

/** `npm run start:webhooks`: the delivery worker as its own process (Kafka consumer group `webhooks`). */
async function main(): Promise<void> {
  const config = loadConfig();
  await createWebhookWorker(config);
  logger.info({ data_dir: config.dataDir, adapters: describeAdapters(config) }, 'webhook worker running');
}

main().catch((err) => {
  logger.fatal({ err }, 'webhook worker failed to start');
  process.exit(1);
});
