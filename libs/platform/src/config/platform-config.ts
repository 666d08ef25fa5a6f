import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { auditCheckpointConfig, type AuditCheckpointConfig } from '../audit-checkpoints/audit-checkpoint-config';
import { parseEnv, parseVariable, VARIABLE_LIST, type AppName, type WorkerRole } from './env-schema';

/** Every setting the apps read, from the environment (env-schema.ts: each variable's kind, default and meaning), in one place (decisions §0). */
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
  /** `npm start`: the niceness its worker runs at (`WORKER_NICE`), below the API's under contention for the CPU (issue 28). */
  readonly workerNice: number;
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

export { WORKER_ROLES, type AppName, type WorkerRole } from './env-schema';

/**
 * Every environment variable the apps read, and the processes a deployment must set it for
 * (`[]`: the default fits every deployment), from the schema (env-schema.ts, the one list).
 * test/deploy checks that this names exactly what the code reads, and that compose and
 * Kubernetes set each one.
 */
export const CONFIG_VARIABLES: Readonly<Record<string, readonly AppName[]>> = Object.fromEntries(
  VARIABLE_LIST.map((v) => [v.name, v.apps]),
);

/** Reads the environment through the schema (env-schema.ts): a bad value throws, naming the variable. */
export function loadConfig(raw: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const env = parseEnv(raw);
  const dataDir = resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: env.PORT,
    dataDir,
    bootstrapApiKeys: env.PAYMENTS_BOOTSTRAP_API_KEYS,
    sandboxAutoAdvance: env.SANDBOX_AUTO_ADVANCE,
    webhookAllowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    cardAuthorizationTimeoutMs: env.CARD_AUTHORIZATION_TIMEOUT_MS,
    cardAuthorizationConcurrency: env.CARD_AUTHORIZATION_CONCURRENCY,
    publicBaseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
    webhookRetryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE_MS,
    masterKey: env.PAYMENTS_MASTER_KEY ?? generatedMasterKey(dataDir),
    eventStoreUrl: env.EVENTSTORE_URL,
    mongoUrl: env.MONGO_URL,
    mongoDatabase: env.MONGO_DATABASE,
    kafkaBrokers: env.KAFKA_BROKERS,
    kafkaClientId: env.KAFKA_CLIENT_ID,
    kafkaTlsCaFile: env.KAFKA_TLS_CA_FILE,
    kafkaTopicPartitions: env.KAFKA_TOPIC_PARTITIONS,
    logLevel: env.LOG_LEVEL,
    transferFeesBps: env.TRANSFER_FEES,
    collectionFeesBps: env.COLLECTION_FEES,
    readConsistencyTimeoutMs: env.READ_CONSISTENCY_TIMEOUT_MS,
    rateLimitPerSecond: env.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: env.RATE_LIMIT_BURST,
    corsAllowedOrigins: env.CORS_ALLOWED_ORIGINS,
    adminToken: env.PAYMENTS_ADMIN_TOKEN,
    cardCreationLimitPerHour: env.CARD_CREATION_LIMIT_PER_HOUR,
    fxRatesFile: resolve(env.FX_RATES_FILE),
    foldCacheMaxBytes: env.FOLD_CACHE_MAX_BYTES,
    snapshotEvery: env.SNAPSHOT_EVERY,
    workerRoles: env.WORKER_ROLES,
    workerHeartbeatTimeoutMs: env.WORKER_HEARTBEAT_TIMEOUT_MS,
    workerMaxHeapMb: env.WORKER_MAX_HEAP_MB,
    workerNice: env.WORKER_NICE,
    maxInflightWrites: env.MAX_INFLIGHT_WRITES,
    maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS,
    workerMaxInflightAppends: env.WORKER_MAX_INFLIGHT_APPENDS,
    idempotencyTtlSeconds: env.IDEMPOTENCY_TTL_SECONDS,
    idempotencyLeaseSeconds: env.IDEMPOTENCY_LEASE_SECONDS,
    metricsPort: env.METRICS_PORT,
    dashboardDir: resolve(env.DASHBOARD_DIR),
    auditCheckpoints: auditCheckpointConfig(raw, dataDir),
  };
}

/**
 * Without PAYMENTS_MASTER_KEY (production sets it), embedded mode generates one on first start
 * and keeps it in DATA_DIR with owner-only permissions, so a restart can still decrypt.
 */
function generatedMasterKey(dataDir: string): Buffer {
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * Read where they are used (the fold cache and snapshots live below any injector) and by
 * loadConfig, so a bad value stops the process at startup rather than failing commands.
 */
export const foldCacheMaxBytes = (env: NodeJS.ProcessEnv = process.env): number =>
  parseVariable('FOLD_CACHE_MAX_BYTES', env);
export const snapshotEvery = (env: NodeJS.ProcessEnv = process.env): number => parseVariable('SNAPSHOT_EVERY', env);
