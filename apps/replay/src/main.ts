import { createEventStore, createReadStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import { READ_MODELS } from '@app/read-models/read-models';
import { runReplay } from './replay';
import { parseArgs } from './replay-args';

/**
 * `npm run replay -- --verify [--organization ID]` or `-- --rebuild`: on whatever adapters the
 * environment configures (DATA_DIR, or EVENTSTORE_URL / MONGO_URL), like the other entry points.
 */
async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const config = loadConfig(process.env);
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  try {
    // Set before closing: the exit status must hold even if the process ends while stores close.
    process.exitCode = await runReplay({ events, readModels, projections: READ_MODELS, out: (line) => console.log(line) }, options);
    return process.exitCode;
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
