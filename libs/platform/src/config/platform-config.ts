import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { auditCheckpointConfig, type AuditCheckpointConfig } from '../audit-checkpoints/audit-checkpoint-config';

/** Every setting the apps read, from the environment, in one place (decisions §0). */
export interface PlatformConfig {
  readonly port: number;
  readonly dataDir: string;
  readonly bootstrapApiKeys: readonly string[];
  readonly sandboxAutoAdvance: boolean;
  readonly webhookAllowPrivateNetworks: boolean;
  /** Decisions §16: how long an authorization waits for the entity's endpoint (CARD_AUTHORIZATION_TIMEOUT_MS). */
  readonly cardAuthorizationTimeoutMs: number;
  /** Authorizations one entity may have waiting on its endpoint at once; past it, the card's fallback (CARD_AUTHORIZATION_CONCURRENCY). */
  readonly cardAuthorizationConcurrency: number;
  readonly publicBaseUrl: string;
  readonly webhookRetryScheduleMs: readonly number[];
  /** 32-byte key that encrypts secrets at rest (private keys, card data). */
  readonly masterKey: Buffer;
  readonly eventStoreUrl?: string;
  readonly mongoUrl?: string;
  readonly mongoDatabase: string;
  readonly kafkaBrokers?: readonly string[];
  readonly kafkaClientId: string;
  /** The CA that signed the brokers' certificates: set, the Kafka client speaks TLS (`KAFKA_TLS_CA_FILE`, deploy/k8s). */
  readonly kafkaTlsCaFile?: string;
  /** Partitions of a topic the Kafka adapter creates (existing topics keep theirs). */
  readonly kafkaTopicPartitions: number;
  readonly logLevel: string;
  /** Transfer fees in basis points per payment type (`TRANSFER_FEES`, e.g. `bank-transfer:25,book-transfer:0`). */
  readonly transferFeesBps: Readonly<Record<string, number>>;
  /** Collection fees in basis points per payment type (`COLLECTION_FEES`, decisions §7). */
  readonly collectionFeesBps: Readonly<Record<string, number>>;
  /** How long a read waits, at most, for the read models to include the caller's writes (decisions §2). */
  readonly readConsistencyTimeoutMs: number;
  /** Requests per second each API key and entity token sustains; 0 turns the limit off (decisions §2). */
  readonly rateLimitPerSecond: number;
  /** The bucket's size: how many requests may arrive at once. */
  readonly rateLimitBurst: number;
  /** Browser origins allowed to call the API with entity tokens (`CORS_ALLOWED_ORIGINS`, comma-separated; none by default). */
  readonly corsAllowedOrigins: readonly string[];
  /** Bearer token of the operator API (decisions §11); unset: /admin/* answers 404; set but blank: no start. */
  readonly adminToken?: string;
  /** Cards one entity may create per clock hour (decisions §2); 0 turns the limit off. */
  readonly cardCreationLimitPerHour: number;
  /** The sandbox FX table for cards (decisions §8), default the dataset shipped in `datasets/`. */
  readonly fxRatesFile: string;
  /** Budget of the command path's fold cache, in estimated bytes (`FOLD_CACHE_MAX_BYTES`, issue 14). */
  readonly foldCacheMaxBytes: number;
  /** Snapshot long streams every this many events; 0: never (`SNAPSHOT_EVERY`). */
  readonly snapshotEvery: number;
  /** The readers of the log a worker runs (`WORKER_ROLES`, default all); the API runs none. */
  readonly workerRoles: readonly WorkerRole[];
  /** `npm start`: a worker that has not answered the supervisor's heartbeat for this long is killed and restarted (`WORKER_HEARTBEAT_TIMEOUT_MS`). */
  readonly workerHeartbeatTimeoutMs: number;
  /** `npm start`: the V8 old-space limit its worker is forked with, in MB (`WORKER_MAX_HEAP_MB`), so its memory has a ceiling (issue 26). */
  readonly workerMaxHeapMb: number;
  /** Write requests (POST, PUT, PATCH, DELETE) the API works on at once; more answer 503 `overloaded` (`MAX_INFLIGHT_WRITES`). */
  readonly maxInflightWrites: number;
  /** The API's event-loop delay (mean over a window, ms) past which writes answer 503 `overloaded` (`MAX_EVENT_LOOP_DELAY_MS`; 0: off). */
  readonly maxEventLoopDelayMs: number;
  /** Appends a worker has in flight through the API's writer at once; more wait in the worker (`WORKER_MAX_INFLIGHT_APPENDS`). */
  readonly workerMaxInflightAppends: number;
  /** How long an `Idempotency-Key` and its answer are kept (decisions §13: at least 24 h; `IDEMPOTENCY_TTL_SECONDS`). */
  readonly idempotencyTtlSeconds: number;
  /** The lease of a running key: a key left by a process that died runs again after at most this (`IDEMPOTENCY_LEASE_SECONDS`). */
  readonly idempotencyLeaseSeconds: number;
  /** The built dashboard (`npm run build` puts it in `dist/dashboard`), served at `/dashboard` (`DASHBOARD_DIR`). */
  readonly dashboardDir: string;
  /** A port of its own for the API's `GET /metrics` (`METRICS_PORT`); unset: /metrics is served on `port`. */
  readonly metricsPort?: number;
  /** Set by the worker `npm start` supervises only (never from the environment): commit through the API's writer. */
  readonly appendThroughParent?: boolean;
  /** Signed checkpoints over the log (issue 23; AUDIT_SIGNING_KEY, CHECKPOINT_DIR, AUDIT_CHECKPOINT_*: audit-checkpoints/audit-checkpoint-config.ts). */
  readonly auditCheckpoints: AuditCheckpointConfig;
}

export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');

/**
 * The readers of the log a worker (apps/worker) can run, any set of them per process. `audit` is
 * the signed-checkpoint writer (docs/decisions/audit.md): it reads the whole log like the others,
 * so it runs beside them, not in the API.
 */
export type WorkerRole = 'projector' | 'publisher' | 'webhooks' | 'process-managers' | 'audit';
export const WORKER_ROLES: readonly WorkerRole[] = ['projector', 'publisher', 'webhooks', 'process-managers', 'audit'];

/** What a process of a distributed deployment runs: the API, or a worker role (docs/decisions/infrastructure.md). */
export type AppName = 'api' | WorkerRole;
const EVERY_APP: readonly AppName[] = ['api', ...WORKER_ROLES];

/**
 * Every environment variable the apps read (here and anywhere else in apps/ and libs/), and the
 * processes a deployment must set it for. All of them call loadConfig, but a worker has no use
 * for, say, the bootstrap keys; `[]` means the default fits every deployment. test/deploy checks
 * that this table names exactly what the code reads, and that compose and Kubernetes set each one.
 */
export const CONFIG_VARIABLES: Readonly<Record<string, readonly AppName[]>> = {
  // The API's HTTP port; the workers answer GET /health on it.
  PORT: EVERY_APP,
  // Every process creates it at start; the API keeps uploaded documents there (a shared volume).
  DATA_DIR: EVERY_APP,
  PAYMENTS_BOOTSTRAP_API_KEYS: ['api'],
  // The operator API (decisions §11) is served by the API; deployments set it from a secret.
  PAYMENTS_ADMIN_TOKEN: ['api'],
  // Without it each process would generate its own key and could not read the others' secrets.
  PAYMENTS_MASTER_KEY: ['api', 'webhooks'],
  // The sandbox KYC review and transfer network are process managers: the worker role runs them.
  SANDBOX_AUTO_ADVANCE: ['process-managers'],
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: ['api', 'webhooks'],
  PUBLIC_BASE_URL: ['api'],
  WEBHOOK_RETRY_SCHEDULE_MS: ['webhooks'],
  // Adapters: every process opens all three ports, so all must agree on them.
  EVENTSTORE_URL: EVERY_APP,
  MONGO_URL: EVERY_APP,
  MONGO_DATABASE: EVERY_APP,
  KAFKA_BROKERS: EVERY_APP,
  KAFKA_CLIENT_ID: EVERY_APP,
  // Set where the brokers speak TLS (deploy/k8s); unset, plaintext (compose, tests).
  KAFKA_TLS_CA_FILE: [],
  KAFKA_TOPIC_PARTITIONS: EVERY_APP,
  LOG_LEVEL: EVERY_APP,
  WEBHOOK_TIMEOUT_MS: [],
  WEBHOOK_SCHEDULER_INTERVAL_MS: [],
  // How long past its timeout a claimed delivery attempt is presumed lost with its worker (30 s); tests shorten it.
  WEBHOOK_LEASE_MARGIN_MS: [],
  // A webhook whose attempts have all failed this long is disabled (decisions §15; five days); tests shorten it.
  WEBHOOK_DISABLE_AFTER_MS: [],
  WEBHOOK_CONSUMER_GROUP: [],
  // Set by the image (deploy/Dockerfile); under `test` the logger is silent unless LOG_LEVEL says otherwise.
  NODE_ENV: [],
  TRANSFER_FEES: ['api'],
  COLLECTION_FEES: ['api'],
  READ_CONSISTENCY_TIMEOUT_MS: [],
  // Per API key and entity token; the defaults (100/s, bursts of 200) fit every deployment.
  RATE_LIMIT_PER_SECOND: [],
  RATE_LIMIT_BURST: [],
  // Browser origins of client apps using entity tokens (issue 32 item 6); none by default.
  CORS_ALLOWED_ORIGINS: [],
  CARD_CREATION_LIMIT_PER_HOUR: [],
  CARD_AUTHORIZATION_TIMEOUT_MS: [],
  CARD_AUTHORIZATION_CONCURRENCY: [],
  // Open GET /events/stream per API key (decisions §10), read by the API's event-stream module; the default (10) fits.
  EVENT_STREAMS_PER_KEY: [],
  FX_RATES_FILE: [],
  // The command path's fold cache (libs/application/src/command-handling/fold-cache.ts): 64 MiB by default.
  FOLD_CACHE_MAX_BYTES: [],
  // Snapshot long streams (accounts, cards) every this many events; 0 turns snapshots off.
  SNAPSHOT_EVERY: [],
  // Which readers a worker runs (apps/worker); every worker deployment of deploy/ names its role.
  WORKER_ROLES: WORKER_ROLES,
  // Only `npm start`'s supervisor reads it; the default fits.
  WORKER_HEARTBEAT_TIMEOUT_MS: [],
  // npm start only (the worker it forks); a deployment sets the limit on each container's node.
  WORKER_MAX_HEAP_MB: [],
  // Backpressure (issue 20): the defaults fit; tests shrink them.
  MAX_INFLIGHT_WRITES: [],
  MAX_EVENT_LOOP_DELAY_MS: [],
  WORKER_MAX_INFLIGHT_APPENDS: [],
  // Idempotency keys (decisions §13): the defaults (24 h, 30 s) fit every deployment; tests shorten them.
  IDEMPOTENCY_TTL_SECONDS: [],
  IDEMPOTENCY_LEASE_SECONDS: [],
  // Signed checkpoints over the log (issue 23, docs/decisions/audit.md). The default key is generated
  // into DATA_DIR (a shared volume); set AUDIT_SIGNING_KEY from a secret in production.
  AUDIT_SIGNING_KEY: [],
  CHECKPOINT_DIR: [],
  AUDIT_CHECKPOINT_INTERVAL_MS: [],
  AUDIT_CHECKPOINT_EVERY_EVENTS: [],
  // Prometheus metrics of the API on a port of their own, kept off the public port (deploy/ sets it; unset: on PORT).
  METRICS_PORT: ['api'],
  // The dashboard's built files (`npm run build` writes them to dist/dashboard, relative to the working
  // directory as datasets/ are); tests point it at their own build.
  DASHBOARD_DIR: [],
  // Read by `npm run listen` (apps/listen), a developer's command, never by a deployment.
  PAYMENTS_API_KEY: [],
};

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
    cardAuthorizationTimeoutMs: positive(env.CARD_AUTHORIZATION_TIMEOUT_MS ?? '2000', 'CARD_AUTHORIZATION_TIMEOUT_MS'),
    cardAuthorizationConcurrency: positive(env.CARD_AUTHORIZATION_CONCURRENCY ?? '100', 'CARD_AUTHORIZATION_CONCURRENCY'),
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    webhookRetryScheduleMs: retry,
    masterKey: masterKey(env.PAYMENTS_MASTER_KEY, dataDir),
    eventStoreUrl: env.EVENTSTORE_URL || undefined,
    mongoUrl: env.MONGO_URL || undefined,
    mongoDatabase: env.MONGO_DATABASE || 'payments',
    kafkaBrokers: env.KAFKA_BROKERS ? env.KAFKA_BROKERS.split(',').map((b) => b.trim()) : undefined,
    kafkaClientId: env.KAFKA_CLIENT_ID || 'payments-platform',
    kafkaTlsCaFile: env.KAFKA_TLS_CA_FILE || undefined,
    kafkaTopicPartitions: positive(env.KAFKA_TOPIC_PARTITIONS || '3', 'KAFKA_TOPIC_PARTITIONS'),
    logLevel: env.LOG_LEVEL || 'info',
    transferFeesBps: feeTable(env.TRANSFER_FEES ?? DEFAULT_TRANSFER_FEES),
    collectionFeesBps: feeTable(env.COLLECTION_FEES ?? DEFAULT_COLLECTION_FEES, 'COLLECTION_FEES'),
    readConsistencyTimeoutMs: positive(env.READ_CONSISTENCY_TIMEOUT_MS || '5000', 'READ_CONSISTENCY_TIMEOUT_MS'),
    rateLimitPerSecond: integer(env.RATE_LIMIT_PER_SECOND || '100', 'RATE_LIMIT_PER_SECOND'),
    rateLimitBurst: positive(env.RATE_LIMIT_BURST || '200', 'RATE_LIMIT_BURST'),
    corsAllowedOrigins: (env.CORS_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    adminToken: adminToken(env.PAYMENTS_ADMIN_TOKEN),
    cardCreationLimitPerHour: integer(env.CARD_CREATION_LIMIT_PER_HOUR || '100', 'CARD_CREATION_LIMIT_PER_HOUR'),
    fxRatesFile: resolve(env.FX_RATES_FILE || 'datasets/fx-rates.json'),
    foldCacheMaxBytes: foldCacheMaxBytes(env),
    snapshotEvery: snapshotEvery(env),
    workerRoles: workerRoles(env.WORKER_ROLES),
    workerHeartbeatTimeoutMs: positive(env.WORKER_HEARTBEAT_TIMEOUT_MS || '10000', 'WORKER_HEARTBEAT_TIMEOUT_MS'),
    workerMaxHeapMb: positive(env.WORKER_MAX_HEAP_MB || '160', 'WORKER_MAX_HEAP_MB'),
    maxInflightWrites: positive(env.MAX_INFLIGHT_WRITES || '256', 'MAX_INFLIGHT_WRITES'),
    maxEventLoopDelayMs: integer(env.MAX_EVENT_LOOP_DELAY_MS || '100', 'MAX_EVENT_LOOP_DELAY_MS'),
    workerMaxInflightAppends: positive(env.WORKER_MAX_INFLIGHT_APPENDS || '64', 'WORKER_MAX_INFLIGHT_APPENDS'),
    idempotencyTtlSeconds: positive(env.IDEMPOTENCY_TTL_SECONDS || '86400', 'IDEMPOTENCY_TTL_SECONDS'),
    idempotencyLeaseSeconds: positive(env.IDEMPOTENCY_LEASE_SECONDS || '30', 'IDEMPOTENCY_LEASE_SECONDS'),
    metricsPort: env.METRICS_PORT ? integer(env.METRICS_PORT, 'METRICS_PORT') : undefined,
    dashboardDir: resolve(env.DASHBOARD_DIR || 'dist/dashboard'),
    auditCheckpoints: auditCheckpointConfig(env, dataDir),
  };
}

/** `WORKER_ROLES=projector,publisher`: a comma-separated subset of the roles; unset or empty: all of them. */
export function workerRoles(value: string | undefined): readonly WorkerRole[] {
  const names = (value ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (!names.length) return WORKER_ROLES;
  for (const name of names) {
    if (!(WORKER_ROLES as readonly string[]).includes(name)) throw new Error(`WORKER_ROLES: unknown role "${name}" (roles: ${WORKER_ROLES.join(', ')})`);
  }
  return WORKER_ROLES.filter((role) => names.includes(role));
}

/**
 * Unset: no operator API (404). Set, it must be a token the operator guard can accept (a bearer
 * credential of 1-512 non-whitespace characters) and long enough not to be guessed. Set but blank
 * or whitespace is refused at start rather than read as unset: it is almost always a secret that
 * failed to load, and an operator API silently off (or, with spaces counted, guessable) is worse
 * than a process that says so.
 */
function adminToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') {
    throw new Error('PAYMENTS_ADMIN_TOKEN is set but blank: set it to a token of at least 32 characters (e.g. openssl rand -hex 32), or unset it to turn the operator API off');
  }
  if (/\s/.test(value)) throw new Error('PAYMENTS_ADMIN_TOKEN must not contain whitespace (it is sent as "Authorization: Bearer <token>")');
  if (value.length < 32) throw new Error('PAYMENTS_ADMIN_TOKEN must be at least 32 characters (e.g. openssl rand -hex 32)');
  if (value.length > 512) throw new Error('PAYMENTS_ADMIN_TOKEN must be at most 512 characters');
  return value;
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

/** Decisions §7; the collections feature checks the type names when it starts. */
export const DEFAULT_COLLECTION_FEES = 'card-acq:290,walletpay-acq:250';

function feeTable(value: string, name = 'TRANSFER_FEES'): Record<string, number> {
  const table: Record<string, number> = {};
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z-]+):(\d{1,5})$/.exec(part);
    if (!match || Number(match[2]) > 10_000) throw new Error(`${name}: expected "<payment-type>:<basis points 0-10000>", got "${part}"`);
    table[match[1]] = Number(match[2]);
  }
  return table;
}

/**
 * Read where they are used (the fold cache and snapshots live below any injector) and by
 * loadConfig, so a bad value stops the process at startup rather than failing commands.
 */
export const foldCacheMaxBytes = (env: NodeJS.ProcessEnv = process.env): number => integer(env.FOLD_CACHE_MAX_BYTES || String(16 * 1024 * 1024), 'FOLD_CACHE_MAX_BYTES');
export const snapshotEvery = (env: NodeJS.ProcessEnv = process.env): number => integer(env.SNAPSHOT_EVERY || '500', 'SNAPSHOT_EVERY');

function integer(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positive(value: string, name: string): number {
  const n = integer(value, name);
  if (n === 0) throw new Error(`${name} must be at least 1`);
  return n;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new Error(`expected true or false, got "${value}"`);
}
