import { join, resolve } from 'node:path';

/** Signed checkpoints over the log (docs/decisions/audit.md, "Signed checkpoints"). */
export interface AuditCheckpointConfig {
  /** Where checkpoints (append-only JSON files) and the tree's side index live (`CHECKPOINT_DIR`, default `DATA_DIR/checkpoints`). */
  readonly dir: string;
  /** `AUDIT_SIGNING_KEY`: an Ed25519 private key, PKCS#8 PEM or a base64 32-byte seed; unset: the generated key file. */
  readonly signingKey?: string;
  /** The key generated on first use when `AUDIT_SIGNING_KEY` is unset (like the master key): `DATA_DIR/audit-signing.key`. */
  readonly signingKeyFile: string;
  /** A checkpoint is signed at most this long after the log grew (`AUDIT_CHECKPOINT_INTERVAL_MS`). */
  readonly intervalMs: number;
  /** …or as soon as this many events are unsigned (`AUDIT_CHECKPOINT_EVERY_EVENTS`). */
  readonly everyEvents: number;
}

export const AUDIT_CHECKPOINT_DEFAULTS = { intervalMs: 10_000, everyEvents: 10_000 } as const;

/** Reads the checkpoint settings; no I/O (the key is read, or generated, by whoever signs or verifies). */
export function auditCheckpointConfig(env: NodeJS.ProcessEnv, dataDir: string): AuditCheckpointConfig {
  return {
    dir: resolve(env.CHECKPOINT_DIR || join(dataDir, 'checkpoints')),
    signingKey: env.AUDIT_SIGNING_KEY?.trim() || undefined,
    signingKeyFile: join(dataDir, 'audit-signing.key'),
    intervalMs: positive(env.AUDIT_CHECKPOINT_INTERVAL_MS, AUDIT_CHECKPOINT_DEFAULTS.intervalMs, 'AUDIT_CHECKPOINT_INTERVAL_MS'),
    everyEvents: positive(env.AUDIT_CHECKPOINT_EVERY_EVENTS, AUDIT_CHECKPOINT_DEFAULTS.everyEvents, 'AUDIT_CHECKPOINT_EVERY_EVENTS'),
  };
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}
