import { Query } from '@nestjs/cqrs';
import type { SignedCheckpoint } from '@app/platform/audit-checkpoints/checkpoint';

/** The signing key as auditors need it. */
export interface CheckpointKey {
  /** Ed25519, SubjectPublicKeyInfo PEM. */
  readonly public_key: string;
  /** Hex SHA-256 of the key's DER SubjectPublicKeyInfo: each checkpoint's `key_id`. */
  readonly key_id: string;
  readonly algorithm: 'Ed25519';
  /** What the signature covers: `<format>\n<tree_size>\n<last_position>\n<root_hash>\n<timestamp>\n`. */
  readonly format: string;
}

export interface AuditCheckpointsPage {
  readonly key: CheckpointKey;
  /** Newest first. */
  readonly data: readonly SignedCheckpoint[];
  readonly meta: { readonly pagination: { readonly has_more: boolean; readonly next_cursor: string | null } };
}

/** `GET /admin/audit/checkpoints`: the signed checkpoints, newest first, `before` a tree size (the cursor). */
export class ListAuditCheckpointsQuery extends Query<AuditCheckpointsPage> {
  constructor(
    readonly limit: number,
    readonly before?: number,
  ) {
    super();
  }
}

/** `GET /admin/audit/checkpoints/consistency?first=&second=`: proof that the second tree extends the first (RFC 9162 §2.1.4). */
export interface CheckpointConsistency {
  readonly key: CheckpointKey;
  readonly first: SignedCheckpoint;
  readonly second: SignedCheckpoint;
  /** Hex hashes, as RFC 9162 §2.1.4.1 orders them. */
  readonly proof: readonly string[];
}

export class GetCheckpointConsistencyQuery extends Query<CheckpointConsistency> {
  constructor(
    readonly first: number,
    readonly second: number,
  ) {
    super();
  }
}
