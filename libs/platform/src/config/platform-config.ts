import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Every setting the apps read, from the environment, in one place (decisions §0). */
export interface PlatformConfig {
  readonly port: number;
  readonly dataDir: string;
  readonly bootstrapApiKeys: readonly string[];
  readonly sandboxAutoAdvance: boolean;
  readonly webhookAllowPrivateNetworks: boolean;
  readonly publicBaseUrl: string;
  readonly webhookRetryScheduleMs: readonly number[];
  /** 32-byte key that encrypts secrets at rest (private keys, card data). */
  readonly masterKey: Buffer;
  readonly eventStoreUrl?: string;
  readonly mongoUrl?: string;
  readonly mongoDatabase: string;
  readonly kafkaBrokers?: readonly string[];
  readonly kafkaClientId: string;
  readonly logLevel: string;
  /** Transfer fees in basis points per payment type (`TRANSFER_FEES`, e.g. `bank-transfer:25,book-transfer:0`). */
  readonly transferFeesBps: Readonly<Record<string, number>>;
}

export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');

const DEFAULT_RETRY_SCHEDULE = '0,5000,300000,1800000,7200000,18000000,36000000,36000000';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const port = integer(env.PORT ?? '3000', 'PORT');
  const dataDir = resolve(env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const bootstrapApiKeys = (env.PAYMENTS_BOOTSTRAP_API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const key of bootstrapApiKeys) {
    if (!/^sk_(test|live)_[A-Za-z0-9_]{8,}$/.test(key)) {
      throw new Error('PAYMENTS_BOOTSTRAP_API_KEYS: each key must start sk_test_ or sk_live_ followed by at least 8 characters');
    }
  }
  const retry = (env.WEBHOOK_RETRY_SCHEDULE_MS ?? DEFAULT_RETRY_SCHEDULE).split(',').map((v) => integer(v.trim(), 'WEBHOOK_RETRY_SCHEDULE_MS'));
  return {
    port,
    dataDir,
    bootstrapApiKeys,
    sandboxAutoAdvance: bool(env.SANDBOX_AUTO_ADVANCE, true),
    webhookAllowPrivateNetworks: bool(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, false),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    webhookRetryScheduleMs: retry,
    masterKey: masterKey(env.PAYMENTS_MASTER_KEY, dataDir),
    eventStoreUrl: env.EVENTSTORE_URL || undefined,
    mongoUrl: env.MONGO_URL || undefined,
    mongoDatabase: env.MONGO_DATABASE || 'payments',
    kafkaBrokers: env.KAFKA_BROKERS ? env.KAFKA_BROKERS.split(',').map((b) => b.trim()) : undefined,
    kafkaClientId: env.KAFKA_CLIENT_ID || 'payments-platform',
    logLevel: env.LOG_LEVEL || 'info',
    transferFeesBps: feeTable(env.TRANSFER_FEES ?? DEFAULT_TRANSFER_FEES),
  };
}

/**
 * PAYMENTS_MASTER_KEY (base64, 32 bytes) in production. Embedded mode generates one on first
 * start and keeps it in DATA_DIR with owner-only permissions, so a restart can still decrypt.
 */
function masterKey(value: string | undefined, dataDir: string): Buffer {
  if (value) {
    const key = Buffer.from(value, 'base64');
    if (key.length !== 32) throw new Error('PAYMENTS_MASTER_KEY must be 32 bytes, base64-encoded');
    return key;
  }
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/** Basis points per payment type; the transfers feature checks the type names when it starts. */
export const DEFAULT_TRANSFER_FEES = 'bank-transfer:25,momo-transfer:150,stablecoin-transfer:10,book-transfer:0';

function feeTable(value: string): Record<string, number> {
  const table: Record<string, number> = {};
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z-]+):(\d{1,5})$/.exec(part);
    if (!match || Number(match[2]) > 10_000) throw new Error(`TRANSFER_FEES: expected "<payment-type>:<basis points 0-10000>", got "${part}"`);
    table[match[1]] = Number(match[2]);
  }
  return table;
}

function integer(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new Error(`expected true or false, got "${value}"`);
}
