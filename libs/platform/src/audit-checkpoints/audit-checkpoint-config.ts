import { join, resolve } from 'node:path';
import { parseEnv, parseVariable } from '../config/env-schema';

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

/** The schema's defaults (config/env-schema.ts), for settings made without the environment. */
export const AUDIT_CHECKPOINT_DEFAULTS = {
  intervalMs: parseVariable('AUDIT_CHECKPOINT_INTERVAL_MS', {}),
  everyEvents: parseVariable('AUDIT_CHECKPOINT_EVERY_EVENTS', {}),
} as const;

/** Reads the checkpoint settings through the schema; no I/O (the key is read, or generated, by whoever signs or verifies). */
export function auditCheckpointConfig(raw: NodeJS.ProcessEnv, dataDir: string): AuditCheckpointConfig {
  const env = parseEnv(raw);
  return {
    dir: resolve(env.CHECKPOINT_DIR ?? join(dataDir, 'checkpoints')),
    signingKey: env.AUDIT_SIGNING_KEY?.trim() || undefined,
    signingKeyFile: join(dataDir, 'audit-signing.key'),
    intervalMs: env.AUDIT_CHECKPOINT_INTERVAL_MS,
    everyEvents: env.AUDIT_CHECKPOINT_EVERY_EVENTS,
  };
}
