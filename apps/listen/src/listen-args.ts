import { parseArgs } from 'node:util';

export const USAGE = `Usage: npm run listen -- [--forward-to URL] [--api URL] [--api-key KEY] [--events NAMES] [--after-position N] [--print-json]

Receives your organization's events as they happen (GET /events/stream on the API, in the API
key's mode) and forwards each to a local URL, signed as a real webhook delivery (Standard Webhooks
headers, the body of a delivery), printing each with the status your endpoint answered. The
signing secret is printed at start: give it to your endpoint's Standard Webhooks library. It is
derived from the API key, so it stays the same from one run to the next.

Options:
  --forward-to URL       POST each event there (http or https), e.g. http://localhost:4242/webhooks;
                         without it, events are only printed
  --api URL              the API (default http://localhost:3000)
  --api-key KEY          an API key (default: the PAYMENTS_API_KEY variable, which keeps the key
                         out of the process list)
  --events NAMES         only these events, comma-separated, e.g. outflows.created,outflows.completed
  --after-position N     start after this log position (replays what happened since it);
                         default: the events from now on
  --print-json           also print each event's body
  -h, --help             print this text and exit

With --forward-to and a sandbox key (sk_test_…), the sandbox's card authorization requests
(card_authorizations.request, decisions §16) are relayed too: each is POSTed to the same URL,
signed the same way, and your endpoint's answer ({"approved": true|false, "amount"?, "reason"?})
decides the authorization, as it would from your real endpoint.

A lost connection is resumed where it stopped (Last-Event-ID). Ctrl-C stops it.
Exit status: 0 stopped, 1 the API refused the key, 2 a usage error.
`;

export class UsageError extends Error {}

export interface ListenOptions {
  readonly api: URL;
  readonly apiKey: string;
  readonly forwardTo: URL | null;
  readonly events: ReadonlySet<string> | null;
  readonly afterPosition: number | null;
  readonly printJson: boolean;
}

export type ListenCommand = { readonly kind: 'help' } | { readonly kind: 'run'; readonly options: ListenOptions };

const EVENT_NAME = /^[a-z_]+\.[a-z_]+$/;

/** node:util parseArgs in strict mode, as `npm run replay` parses its own. */
export function parseListenArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ListenCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'forward-to': { type: 'string' },
        api: { type: 'string' },
        'api-key': { type: 'string' },
        events: { type: 'string' },
        'after-position': { type: 'string' },
        'print-json': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // ERR_PARSE_ARGS_UNKNOWN_OPTION, _INVALID_OPTION_VALUE, _UNEXPECTED_POSITIONAL: the message names the argument.
    const { code, message } = error as { code?: unknown; message?: string };
    if (String(code).startsWith('ERR_PARSE_ARGS_')) throw new UsageError(message);
    throw error;
  }
  if (values.help) return { kind: 'help' };
  const apiKey = values['api-key'] ?? env.PAYMENTS_API_KEY ?? '';
  if (!apiKey) throw new UsageError('an API key is needed: --api-key sk_test_… or the PAYMENTS_API_KEY variable');
  if (!/^sk_(test|live)_\S+$/.test(apiKey))
    throw new UsageError('the API key must be a secret key (sk_test_… or sk_live_…); entity tokens cannot read events');
  const events =
    values.events === undefined
      ? null
      : new Set(
          values.events
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean),
        );
  for (const name of events ?? [])
    if (!EVENT_NAME.test(name))
      throw new UsageError(`--events: "${name}" is not an event name such as outflows.completed`);
  if (events && !events.size) throw new UsageError('--events names no event');
  const after = values['after-position'];
  if (after !== undefined && !/^\d{1,16}$/.test(after))
    throw new UsageError(`--after-position must be a log position (a non-negative integer), not "${after}"`);
  return {
    kind: 'run',
    options: {
      api: httpUrl(values.api ?? 'http://localhost:3000', '--api'),
      apiKey,
      forwardTo: values['forward-to'] === undefined ? null : httpUrl(values['forward-to'], '--forward-to'),
      events,
      afterPosition: after === undefined ? null : Number(after),
      printJson: values['print-json'] === true,
    },
  };
}

function httpUrl(value: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a URL such as http://localhost:4242/webhooks, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http or https URL, not "${value}"`);
  if (url.username || url.password) throw new UsageError(`${flag} must not carry credentials`);
  return url;
}
