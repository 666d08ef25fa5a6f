import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envHelp, VARIABLE_LIST } from './env-schema';
import { CONFIG_VARIABLES, loadConfig } from './platform-config';

describe('the configuration schema', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'env-schema-'));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

  it.each([
    ['a number', { PORT: 'abc' }, 'PORT must be an integer (0 or more), got "abc"'],
    ['a number out of range', { RATE_LIMIT_BURST: '0' }, 'RATE_LIMIT_BURST must be an integer of at least 1, got "0"'],
    ['a boolean', { SANDBOX_AUTO_ADVANCE: 'maybe' }, 'SANDBOX_AUTO_ADVANCE must be true or false, got "maybe"'],
    [
      'an enum',
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
    ['a list of an enum', { WORKER_ROLES: 'projector,indexer' }, 'WORKER_ROLES has an unknown role "indexer"'],
    [
      'a url',
      { PUBLIC_BASE_URL: 'pay.example.com' },
      'PUBLIC_BASE_URL must be an http or https URL, got "pay.example.com"',
    ],
    [
      'a connection string',
      { MONGO_URL: 'http://mongo:27017' },
      'MONGO_URL must be a connection string starting mongodb://',
    ],
    [
      'a duration',
      { READ_CONSISTENCY_TIMEOUT_MS: '5s' },
      'READ_CONSISTENCY_TIMEOUT_MS must be a whole number of milliseconds of at least 1, got "5s"',
    ],
    [
      'a duration read outside loadConfig',
      { WEBHOOK_TIMEOUT_MS: '-1' },
      'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds',
    ],
    ['a key', { PAYMENTS_MASTER_KEY: 'c2hvcnQ=' }, 'PAYMENTS_MASTER_KEY must be 32 bytes, base64-encoded'],
  ])('refuses %s at start, naming the variable', (_kind, env, message) => {
    expect(() => load(env)).toThrow(message);
  });

  it('names every bad variable at once, one per line', () => {
    expect(() => load({ PORT: 'x', SNAPSHOT_EVERY: 'often' })).toThrow(/^PORT .*\nSNAPSHOT_EVERY /);
  });

  it('never echoes a connection string, which carries a password', () => {
    expect(() => load({ EVENTSTORE_URL: 'tcp://admin:s3cret@eventstore:2113' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
    );
  });

  it('takes the defaults when unset or blank, and parses set values to what the apps use', () => {
    const defaults = load({ PORT: '', LOG_LEVEL: '' });
    expect([
      defaults.port,
      defaults.logLevel,
      defaults.publicBaseUrl,
      defaults.sandboxAutoAdvance,
      defaults.eventStoreUrl,
    ]).toEqual([3000, 'info', 'http://localhost:3000', true, undefined]);
    const set = load({
      PORT: '8080',
      SANDBOX_AUTO_ADVANCE: 'No',
      PUBLIC_BASE_URL: 'https://pay.example.com/',
      WORKER_ROLES: 'publisher, projector',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
    });
    expect([set.port, set.sandboxAutoAdvance, set.publicBaseUrl, set.workerRoles, set.kafkaBrokers]).toEqual([
      8080,
      false,
      'https://pay.example.com',
      ['projector', 'publisher'],
      ['k1:9092', 'k2:9092'],
    ]);
  });

  it('describes every variable, and CONFIG_VARIABLES is its list', () => {
    for (const v of VARIABLE_LIST) expect([v.name, v.description.length > 10]).toEqual([v.name, true]);
    expect(Object.keys(CONFIG_VARIABLES)).toEqual(VARIABLE_LIST.map((v) => v.name));
    expect(envHelp()).toContain('SNAPSHOT_EVERY (default: 500)\n    Snapshot long streams');
  });
});
