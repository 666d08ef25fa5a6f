import 'reflect-metadata';
import { BootstrapService } from '@app/application/access';
import { describeAdapters } from '@app/platform/adapters';
import { envHelp } from '@app/platform/config/env-schema';
import { loadConfig } from '@app/platform/config/platform-config';
import { logger } from '@app/platform/logging/logger';
import type { INestApplication } from '@nestjs/common';
import type { PlatformConfig } from '@app/platform/config/platform-config';

/**
 * Starts the HTTP API `create` builds: for `npm start` with one supervised worker beside it, for
 * `npm run start:api` alone (the workers run as their own deployments).
 */
export async function serve(create: (config: PlatformConfig) => Promise<INestApplication>): Promise<void> {
  // `--help-env`: every environment variable, its default and meaning (the schema's list), and no start.
  if (process.argv.includes('--help-env')) return void process.stdout.write(envHelp());
  const config = loadConfig();
  const app = await create(config);
  const { generatedKey } = await app.get(BootstrapService).run();
  await app.listen(config.port);
  const base = `http://localhost:${config.port}`;
  logger.info(
    { port: config.port, data_dir: config.dataDir, adapters: describeAdapters(config) },
    'payments API listening',
  );
  // Printed once, on the first start only: the key is never stored in clear.
  if (generatedKey) {
    process.stdout.write(
      `\nA sandbox API key was created for you (shown once, keep it):\n\n  ${generatedKey}\n\n` +
        `Try:\n  curl -s ${base}/api-keys/current -H "Authorization: Bearer ${generatedKey}"\n\n`,
    );
  } else {
    process.stdout.write(
      `\nPayments API on ${base} (GET ${base}/health). Authenticate with "Authorization: Bearer <API key>".\n\n`,
    );
  }
}

export function exitOnStartupFailure(err: unknown): never {
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
