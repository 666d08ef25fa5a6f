import { parseListenArgs, UsageError } from './listen-args';

const KEY = 'sk_test_abcdefgh12345678';

describe('npm run listen: command line (node:util parseArgs, strict)', () => {
  it('defaults: the local API, the key from PAYMENTS_API_KEY, from now on, printing only', () => {
    expect(parseListenArgs([], { PAYMENTS_API_KEY: KEY })).toEqual({
      kind: 'run',
      options: {
        api: new URL('http://localhost:3000'),
        apiKey: KEY,
        forwardTo: null,
        events: null,
        afterPosition: null,
        printJson: false,
      },
    });
  });

  it('takes every option; --api-key wins over the variable', () => {
    const command = parseListenArgs(
      [
        '--forward-to',
        'http://localhost:4242/webhooks',
        '--api',
        'https://api.example.com/',
        '--api-key',
        'sk_live_xyz12345',
        '--events',
        'outflows.created, outflows.completed',
        '--after-position',
        '42',
        '--print-json',
      ],
      { PAYMENTS_API_KEY: KEY },
    );
    expect(command).toEqual({
      kind: 'run',
      options: {
        api: new URL('https://api.example.com/'),
        apiKey: 'sk_live_xyz12345',
        forwardTo: new URL('http://localhost:4242/webhooks'),
        events: new Set(['outflows.created', 'outflows.completed']),
        afterPosition: 42,
        printJson: true,
      },
    });
  });

  it('--help runs nothing, whatever else is given', () => {
    expect(parseListenArgs(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseListenArgs(['--forward-to', 'http://x', '--help'], {})).toEqual({ kind: 'help' });
  });

  it.each([
    [[], {}, 'an API key is needed'],
    [['--api-key', 'etk_abc'], {}, 'must be a secret key'],
    [['--bogus'], { PAYMENTS_API_KEY: KEY }, "Unknown option '--bogus'"],
    [['listen'], { PAYMENTS_API_KEY: KEY }, "Unexpected argument 'listen'"],
    [['--forward-to'], { PAYMENTS_API_KEY: KEY }, "'--forward-to <value>' argument missing"],
    [['--forward-to', 'ftp://host/x'], { PAYMENTS_API_KEY: KEY }, '--forward-to must be an http or https URL'],
    [['--forward-to', 'not a url'], { PAYMENTS_API_KEY: KEY }, '--forward-to must be a URL'],
    [['--api', 'http://user:pw@host'], { PAYMENTS_API_KEY: KEY }, '--api must not carry credentials'],
    [['--after-position=-1'], { PAYMENTS_API_KEY: KEY }, '--after-position must be a log position'],
    [['--after-position', '1e3'], { PAYMENTS_API_KEY: KEY }, '--after-position must be a log position'],
    [['--events', 'Outflows'], { PAYMENTS_API_KEY: KEY }, 'is not an event name'],
    [['--events', ','], { PAYMENTS_API_KEY: KEY }, '--events names no event'],
    [['--print-json=yes'], { PAYMENTS_API_KEY: KEY }, "'--print-json' does not take an argument"],
  ] as const)('%j refuses with a usage error', (args, env, message) => {
    expect(() => parseListenArgs([...args], env)).toThrow(UsageError);
    expect(() => parseListenArgs([...args], env)).toThrow(message);
  });
});
