import { parseReplayArgs, UsageError, USAGE, type ReplayCommand } from './replay-args';
import type { ReplayOptions } from './replay';

/**
 * `npm run replay -- --verify [--organization ID]` or `-- --rebuild`: on whatever adapters the
 * environment configures (DATA_DIR, or EVENTSTORE_URL / MONGO_URL), like the other entry points.
 * `--help` prints the usage and exits 0; a command line it refuses exits 2 with the usage on
 * stderr. Both before the configuration is read or a store opened (loadConfig alone creates
 * DATA_DIR and its master key), and before the adapters and read models are even loaded.
 */
async function main(): Promise<number> {
  let command: ReplayCommand;
  try {
    command = parseReplayArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`replay: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  return replay(command.options);
}

async function replay(options: ReplayOptions): Promise<number> {
  const [{ createEventStore, createReadStore }, { loadConfig }, { READ_MODELS }, { runReplay }] = await Promise.all([
    import('@app/platform/adapters'),
    import('@app/platform/config/platform-config'),
    import('@app/read-models/read-models'),
    import('./replay'),
  ]);
  const config = loadConfig(process.env);
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  try {
    // Set before closing: the exit status must hold even if the process ends while stores close.
    process.exitCode = await runReplay(
      {
        events,
        readModels,
        projections: READ_MODELS,
        out: (line) => console.log(line),
        checkpoints: config.auditCheckpoints,
      },
      options,
    );
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
