import { systemClock } from '@app/platform/clock';
import { Listener } from './listen';
import { parseListenArgs, USAGE, UsageError } from './listen-args';

/**
 * `npm run listen -- --forward-to http://localhost:4242/webhooks`: the organization's events as
 * they happen, forwarded signed to a local endpoint (apps/listen/src/listen.ts). It talks to the
 * API over HTTP only: no store, no configuration of the platform is read.
 */
async function main(): Promise<number> {
  let command;
  try {
    command = parseListenArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`listen: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  const listener = new Listener(command.options, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    clock: systemClock,
  });
  return listener.run(stop.signal);
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
