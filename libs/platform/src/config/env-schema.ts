import { customCleanEnv, makeExactValidator } from 'envalid';
import {
  base64Key,
  boolean,
  connectionString,
  duration,
  feeTable,
  httpUrl,
  integer,
  list,
  niceness,
  oneOf,
  port,
  refuse,
  text,
  type Kind,
} from './env-kinds';

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

/** Basis points per payment type; the transfers feature checks the type names when it starts. */
const DEFAULT_TRANSFER_FEES = 'bank-transfer:25,momo-transfer:150,stablecoin-transfer:10,book-transfer:0';
/** Decisions §7; the collections feature checks the type names when it starts. */
const DEFAULT_COLLECTION_FEES = 'card-acq:290,walletpay-acq:250';

/**
 * What `--help-env` prints of a variable, and the processes a deployment must set it for: `[]`
 * means the default fits every deployment (test/deploy checks that compose and Kubernetes set the
 * others). `default` is parsed like a set value; a variable without one is absent when unset.
 */
export interface VariableMeta {
  readonly description: string;
  readonly apps: readonly AppName[];
  readonly default?: string;
  /** Set but blank is a value (refused or kept), not "unset". */
  readonly blankIsValue?: boolean;
}

/** A variable as the schema holds it: its meaning, and envalid's spec of its kind (`T`: what the apps get). */
interface Variable<T> extends VariableMeta {
  readonly spec: ReturnType<ReturnType<typeof makeExactValidator<T>>>;
  readonly parsed?: T;
}

function variable<T>(kind: Kind<T>, meta: VariableMeta & { default: string }): Variable<T>;
function variable<T>(kind: Kind<T>, meta: VariableMeta): Variable<T | undefined>;
function variable<T>(kind: Kind<T>, meta: VariableMeta): Variable<T | undefined> {
  const validator = makeExactValidator<T>(kind);
  // The default is put in the input as a string (inputOf), so it is parsed like a set value; without one, unset is undefined.
  return {
    ...meta,
    spec:
      meta.default === undefined
        ? validator({ desc: meta.description, default: undefined })
        : validator({ desc: meta.description }),
  };
}

const BOOTSTRAP_KEY = /^sk_(test|live)_[A-Za-z0-9_]{8,}$/;
/** A subset of the roles, in their order; none named: all of them. */
const workerRoles: Kind<readonly WorkerRole[]> = (value) => {
  const names = list((role) =>
    (WORKER_ROLES as readonly string[]).includes(role)
      ? role
      : refuse(`has an unknown role "${role}" (roles: ${WORKER_ROLES.join(', ')})`),
  )(value);
  return names.length ? WORKER_ROLES.filter((role) => names.includes(role)) : WORKER_ROLES;
};
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The operator API's bearer token (decisions §11). Set but blank is refused rather than read as
 * unset: it is almost always a secret that failed to load, and an operator API silently off (or,
 * with spaces counted, guessable) is worse than a process that says so.
 */
const adminToken: Kind<string> = (value) => {
  if (value.trim() === '')
    return refuse(
      'is set but blank: set it to a token of at least 32 characters (e.g. openssl rand -hex 32), or unset it to turn the operator API off',
    );
  if (/\s/.test(value)) return refuse('must not contain whitespace (it is sent as "Authorization: Bearer <token>")');
  if (value.length < 32) return refuse('must be at least 32 characters (e.g. openssl rand -hex 32)');
  if (value.length > 512) return refuse('must be at most 512 characters');
  return value;
};

/**
 * Every environment variable the apps read (here and anywhere else in apps/ and libs/), its kind,
 * default and meaning: the one list. loadConfig parses them all at start, so a bad value stops
 * the process naming the variable; `--help-env` prints the list; test/deploy checks that the
 * Configuration table of docs/operations.md, compose and Kubernetes agree with it.
 */
export const ENV_SCHEMA = {
  PORT: variable(port, {
    default: '3000',
    apps: EVERY_APP,
    description: "The API's HTTP port; a standalone worker answers /health and /metrics on it.",
  }),
  DATA_DIR: variable(text, {
    default: './data',
    apps: EVERY_APP,
    description:
      'Created at start by every process: the embedded stores, generated keys, uploaded documents (a shared volume).',
  }),
  PAYMENTS_BOOTSTRAP_API_KEYS: variable(
    list((key) =>
      BOOTSTRAP_KEY.test(key)
        ? key
        : refuse('each key must start sk_test_ or sk_live_ followed by at least 8 characters'),
    ),
    {
      default: '',
      apps: ['api'],
      description: 'API keys created at start if missing (comma-separated sk_test_…/sk_live_…).',
    },
  ),
  PAYMENTS_ADMIN_TOKEN: variable(adminToken, {
    apps: ['api'],
    blankIsValue: true,
    description:
      'Bearer token of the operator API (/admin/*, decisions §11), 32-512 characters; unset: /admin/* answers 404.',
  }),
  PAYMENTS_MASTER_KEY: variable(base64Key, {
    apps: ['api', 'webhooks'],
    description:
      'Encrypts secrets at rest (32 bytes, base64); unset: generated into DATA_DIR on first start, so every process sharing the stores must be given the same one.',
  }),
  SANDBOX_AUTO_ADVANCE: variable(boolean, {
    default: 'true',
    apps: ['process-managers'],
    description: 'The sandbox KYC review and transfer network move on by themselves (process managers).',
  }),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: variable(boolean, {
    default: 'false',
    apps: ['api', 'webhooks'],
    description: 'Webhook URLs may point at private and loopback addresses (development, tests).',
  }),
  PUBLIC_BASE_URL: variable(httpUrl, {
    apps: ['api'],
    description:
      'The URL clients reach the API at (links it hands out, 3-D Secure pages); default http://localhost:PORT.',
  }),
  WEBHOOK_RETRY_SCHEDULE_MS: variable(list(integer(0, 'milliseconds')), {
    default: '0,5000,300000,1800000,7200000,18000000,36000000,36000000',
    apps: ['webhooks'],
    description: 'Delay before each webhook delivery attempt, in ms (decisions §9).',
  }),
  EVENTSTORE_URL: variable(connectionString(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']), {
    apps: EVERY_APP,
    description: 'EventStoreDB for the log; unset: the embedded SQLite log.',
  }),
  MONGO_URL: variable(connectionString(['mongodb', 'mongodb+srv']), {
    apps: EVERY_APP,
    description: 'MongoDB for the read models and coordination; unset: embedded SQLite.',
  }),
  MONGO_DATABASE: variable(text, { default: 'payments', apps: EVERY_APP, description: 'The MongoDB database.' }),
  KAFKA_BROKERS: variable(list(String), {
    apps: EVERY_APP,
    description: 'Kafka brokers for the bus (comma-separated host:port); unset: the embedded bus.',
  }),
  KAFKA_CLIENT_ID: variable(text, {
    default: 'payments-platform',
    apps: EVERY_APP,
    description: "The Kafka client's id.",
  }),
  KAFKA_TLS_CA_FILE: variable(text, {
    apps: [],
    description:
      "The CA that signed the brokers' certificates: set, the Kafka client speaks TLS (deploy/k8s); unset, plaintext.",
  }),
  KAFKA_TOPIC_PARTITIONS: variable(integer(1), {
    default: '3',
    apps: EVERY_APP,
    description: 'Partitions of a topic the Kafka adapter creates (existing topics keep theirs).',
  }),
  LOG_LEVEL: variable(oneOf(LOG_LEVELS), {
    default: 'info',
    apps: EVERY_APP,
    description: 'Pino log level (silent under NODE_ENV=test unless set).',
  }),
  WEBHOOK_TIMEOUT_MS: variable(duration(), {
    default: '10000',
    apps: [],
    description: 'A webhook delivery attempt times out after this (decisions §9).',
  }),
  WEBHOOK_SCHEDULER_INTERVAL_MS: variable(duration(), {
    default: '250',
    apps: [],
    description: 'How often due webhook deliveries are looked for.',
  }),
  WEBHOOK_LEASE_MARGIN_MS: variable(duration(), {
    default: '30000',
    apps: [],
    description:
      'How long past its timeout a claimed delivery attempt is presumed lost with its worker; tests shorten it.',
  }),
  WEBHOOK_DISABLE_AFTER_MS: variable(duration(), {
    default: '432000000',
    apps: [],
    description: 'A webhook whose attempts have all failed this long is disabled (five days, decisions §15).',
  }),
  WEBHOOK_CONSUMER_GROUP: variable(text, {
    default: 'webhooks',
    apps: [],
    description: "The webhook worker's bus consumer group.",
  }),
  NODE_ENV: variable(text, {
    apps: [],
    description:
      'Set by the image (deploy/Dockerfile); under `test` the logger is silent unless LOG_LEVEL says otherwise.',
  }),
  TRANSFER_FEES: variable(feeTable, {
    default: DEFAULT_TRANSFER_FEES,
    apps: ['api'],
    description: 'Transfer fees in basis points per payment type (<type>:<bps>,…).',
  }),
  COLLECTION_FEES: variable(feeTable, {
    default: DEFAULT_COLLECTION_FEES,
    apps: ['api'],
    description: 'Collection fees in basis points per payment type (decisions §7).',
  }),
  READ_CONSISTENCY_TIMEOUT_MS: variable(duration(), {
    default: '5000',
    apps: [],
    description: 'How long a read waits, at most, for the read models to include the caller’s writes (decisions §2).',
  }),
  RATE_LIMIT_PER_SECOND: variable(integer(), {
    default: '100',
    apps: [],
    description: 'Requests per second each API key and entity token sustains; 0 turns the limit off (decisions §2).',
  }),
  RATE_LIMIT_BURST: variable(integer(1), {
    default: '200',
    apps: [],
    description: 'How many requests may arrive at once (the bucket’s size).',
  }),
  CORS_ALLOWED_ORIGINS: variable(
    list((origin) => origin.replace(/\/+$/, '')),
    {
      default: '',
      apps: [],
      description: 'Browser origins allowed to call the API with entity tokens (comma-separated; none by default).',
    },
  ),
  CARD_CREATION_LIMIT_PER_HOUR: variable(integer(), {
    default: '100',
    apps: [],
    description: 'Cards one entity may create per clock hour (decisions §2); 0 turns the limit off.',
  }),
  CARD_AUTHORIZATION_TIMEOUT_MS: variable(duration(), {
    default: '2000',
    apps: [],
    description: "How long a card authorization waits for the entity's endpoint (decisions §16).",
  }),
  CARD_AUTHORIZATION_CONCURRENCY: variable(integer(1), {
    default: '100',
    apps: [],
    description: "Authorizations one entity may have waiting on its endpoint at once; past it, the card's fallback.",
  }),
  EVENT_STREAMS_PER_KEY: variable(integer(1), {
    apps: [],
    description: 'Open GET /events/stream per API key (default 10, decisions §10).',
  }),
  FX_RATES_FILE: variable(text, {
    default: 'datasets/fx-rates.json',
    apps: [],
    description: 'The sandbox FX table for cards (decisions §8).',
  }),
  FOLD_CACHE_MAX_BYTES: variable(integer(), {
    default: String(16 * 1024 * 1024),
    apps: [],
    description: "Budget of the command path's fold cache, in estimated bytes.",
  }),
  SNAPSHOT_EVERY: variable(integer(), {
    default: '500',
    apps: [],
    description: 'Snapshot long streams (accounts, cards) every this many events; 0 turns snapshots off.',
  }),
  WORKER_ROLES: variable(workerRoles, {
    default: '',
    apps: WORKER_ROLES,
    description: `The readers a worker runs (comma-separated: ${WORKER_ROLES.join(', ')}); unset: all.`,
  }),
  WORKER_HEARTBEAT_TIMEOUT_MS: variable(duration(), {
    default: '10000',
    apps: [],
    description:
      "npm start: a worker that has not answered the supervisor's heartbeat for this long is killed and restarted.",
  }),
  WORKER_MAX_HEAP_MB: variable(integer(1), {
    default: '160',
    apps: [],
    description: 'npm start: the V8 old-space limit its worker is forked with, in MB (issue 26).',
  }),
  WORKER_NICE: variable(niceness, {
    default: '5',
    apps: [],
    description:
      "npm start: the niceness its worker lowers itself to, so that under contention for the CPU a request runs before the log's readers (issue 28); 0 keeps the API's.",
  }),
  MAX_INFLIGHT_WRITES: variable(integer(1), {
    default: '256',
    apps: [],
    description: 'Write requests the API works on at once; more answer 503 overloaded (issue 20).',
  }),
  MAX_EVENT_LOOP_DELAY_MS: variable(duration(0), {
    default: '100',
    apps: [],
    description: "The API's event-loop delay past which writes answer 503 overloaded; 0: off.",
  }),
  WORKER_MAX_INFLIGHT_APPENDS: variable(integer(1), {
    default: '64',
    apps: [],
    description: "Appends a worker has in flight through the API's writer at once; more wait in the worker.",
  }),
  IDEMPOTENCY_TTL_SECONDS: variable(integer(1), {
    default: '86400',
    apps: [],
    description: 'How long an Idempotency-Key and its answer are kept (decisions §13: at least 24 h).',
  }),
  IDEMPOTENCY_LEASE_SECONDS: variable(integer(1), {
    default: '30',
    apps: [],
    description: 'A key left running by a process that died runs again after at most this.',
  }),
  AUDIT_SIGNING_KEY: variable(text, {
    apps: [],
    description:
      'Ed25519 key signing checkpoints (PKCS#8 PEM or base64 seed); unset: generated into DATA_DIR. Set it from a secret in production.',
  }),
  CHECKPOINT_DIR: variable(text, {
    apps: [],
    description: 'Where signed checkpoints are written (default DATA_DIR/checkpoints).',
  }),
  AUDIT_CHECKPOINT_INTERVAL_MS: variable(duration(), {
    default: '10000',
    apps: [],
    description: 'A checkpoint is signed at most this long after the log grew.',
  }),
  AUDIT_CHECKPOINT_EVERY_EVENTS: variable(integer(1), {
    default: '10000',
    apps: [],
    description: '…or as soon as this many events are unsigned.',
  }),
  METRICS_PORT: variable(port, {
    apps: ['api'],
    description: "A port of its own for the API's GET /metrics, off the public port; unset: on PORT.",
  }),
  DASHBOARD_DIR: variable(text, {
    default: 'dist/dashboard',
    apps: [],
    description: 'The built dashboard (npm run build), served at /dashboard.',
  }),
  PAYMENTS_API_KEY: variable(text, {
    apps: [],
    description: 'Read by `npm run listen` (apps/listen), a developer’s command, never by a deployment.',
  }),
};

type Schema = typeof ENV_SCHEMA;
export type Env = { readonly [K in keyof Schema]: Schema[K] extends Variable<infer T> ? T : never };

/** envalid's input: unset, and (unless the variable says otherwise) set but blank, take the default, so compose's `${X:-}` is unset. */
function inputOf(raw: NodeJS.ProcessEnv, names: readonly (keyof Schema)[]): Record<string, string | undefined> {
  return Object.fromEntries(
    names.map((name) => {
      const { default: fallback, blankIsValue } = ENV_SCHEMA[name] as VariableMeta;
      const value = raw[name];
      return [name, value === undefined || (value === '' && !blankIsValue) ? fallback : value];
    }),
  );
}

/** Parses the variables named; bad values throw one error naming each (one per line). */
function clean(raw: NodeJS.ProcessEnv, names: readonly (keyof Schema)[]): Env {
  const specs = Object.fromEntries(names.map((name) => [name, ENV_SCHEMA[name].spec]));
  const reporter = ({ errors }: { errors: Partial<Record<string, Error>> }) => {
    const lines = Object.entries(errors).map(([name, error]) => `${name} ${error?.message}`);
    if (lines.length) throw new Error(lines.join('\n'));
  };
  return customCleanEnv(inputOf(raw, names), specs, (cleaned) => cleaned, { reporter }) as unknown as Env;
}

const NAMES = Object.keys(ENV_SCHEMA) as (keyof Schema)[];

/** Parses every variable; a bad value throws naming the variable (all of them, one per line). */
export const parseEnv = (raw: NodeJS.ProcessEnv): Env => clean(raw, NAMES);

/** One variable, for code below any injector (the fold cache, snapshots). */
export const parseVariable = <K extends keyof Schema>(name: K, raw: NodeJS.ProcessEnv): Env[K] =>
  clean(raw, [name])[name];

/** Each variable with its meaning and default. */
export const VARIABLE_LIST: ReadonlyArray<VariableMeta & { readonly name: string }> = NAMES.map((name) => {
  const { description, apps, default: fallback } = ENV_SCHEMA[name] as VariableMeta;
  return { name, description, apps, default: fallback };
});

/** `--help-env`: the list, for a person. */
export function envHelp(): string {
  return VARIABLE_LIST.map(
    (v) => `${v.name}${v.default ? ` (default: ${v.default})` : ''}\n    ${v.description}\n`,
  ).join('');
}
