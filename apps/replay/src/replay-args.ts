import { parseArgs } from 'node:util';
import type { ReplayOptions } from './replay';

export const USAGE = `Usage: npm run replay -- [--verify] [--rebuild] [--organization ID] [--no-progress]

Replays the event log from position 0: recomputes every stream's hash chain, rebuilds every read
model into a scratch store and compares it with the live one (a digest per collection), checks
the ledger, and checks the log against the latest signed checkpoint in CHECKPOINT_DIR (truncation,
deleted streams, rewritten or reordered events). Runs on the adapters the environment configures
(DATA_DIR, or EVENTSTORE_URL and MONGO_URL).

Options:
  --verify             compare only (the default)
  --rebuild            also overwrite live read-model documents that differ from the replay
  --organization ID    compare one organization's documents only (org_…, as GET /api-keys/current shows)
  --no-progress        no progress bar on stderr
  -h, --help           print this text and exit

Exit status: 0 everything equal, 1 a difference (named), 2 a usage error or a failure to run.
`;

/** A command line the CLI refuses: printed on stderr with the usage, exit status 2. */
export class UsageError extends Error {}

export type ReplayCommand = { readonly kind: 'help' } | { readonly kind: 'run'; readonly options: ReplayOptions };

const ORGANIZATION_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * `--verify` is the default; `--rebuild` also replaces differing live documents; `--organization
 * ID` limits both. Parsed by node:util's parseArgs in strict mode: an unknown flag, a positional
 * argument, a value given to a switch or a missing value is a UsageError. `--help` (or `-h`) with
 * otherwise valid arguments prints the usage and runs nothing.
 */
export function parseReplayArgs(argv: readonly string[], stderrIsTTY = Boolean(process.stderr.isTTY)): ReplayCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        verify: { type: 'boolean' },
        rebuild: { type: 'boolean' },
        organization: { type: 'string' },
        'no-progress': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // ERR_PARSE_ARGS_UNKNOWN_OPTION, _INVALID_OPTION_VALUE, _UNEXPECTED_POSITIONAL: the message names the argument.
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS_'))
      throw new UsageError(error.message);
    throw error;
  }
  if (values.help) return { kind: 'help' };
  if (values.organization !== undefined && !ORGANIZATION_ID.test(values.organization)) {
    throw new UsageError(
      `--organization must be an organization id (org_ and 26 ULID characters), not "${values.organization}"`,
    );
  }
  return {
    kind: 'run',
    options: {
      verify: true,
      rebuild: values.rebuild === true,
      organizationId: values.organization,
      progress: !values['no-progress'] && stderrIsTTY,
    },
  };
}
