import { sign, verify, type KeyObject } from 'node:crypto';
import type { AuditSigningKey } from './signing-key';

/** What a checkpoint states about the log, all of it signed. */
export interface CheckpointStatement {
  /** Leaves (events) in the tree: every event up to `last_position`. */
  readonly tree_size: number;
  /** Global position of the last event in the tree (0 for an empty tree). */
  readonly last_position: number;
  /** RFC 6962 Merkle tree hash over the leaves (lowercase hex). */
  readonly root_hash: string;
  /** When it was signed, ms since epoch. */
  readonly timestamp: number;
}

/** A signed checkpoint, as stored and served. */
export interface SignedCheckpoint extends CheckpointStatement {
  /** The signing key: hex SHA-256 of its DER SubjectPublicKeyInfo. */
  readonly key_id: string;
  /** Ed25519 over `signedBody(statement)`, base64. */
  readonly signature: string;
}

/** A checkpoint as its file holds it: the compact range it was computed from, so the next one reads only new events. */
export interface StoredCheckpoint extends SignedCheckpoint {
  /** Roots of the perfect subtrees of the tree, left to right (hex); folded right to left they give `root_hash`. */
  readonly frontier: readonly string[];
}

export const CHECKPOINT_FORMAT = 'payments-audit-checkpoint/v1';

/**
 * The bytes the signature covers: a format line, then one value per line (tree size, last
 * position, root hash, timestamp), each line ending in "\n". A fixed text rather than JSON so that a
 * verifier in any language rebuilds it without a canonical JSON serializer; the first line keeps
 * the key's signatures over checkpoints apart from anything else it might ever sign.
 */
export function signedBody(c: CheckpointStatement): string {
  return `${CHECKPOINT_FORMAT}\n${c.tree_size}\n${c.last_position}\n${c.root_hash}\n${c.timestamp}\n`;
}

export function signCheckpoint(statement: CheckpointStatement, key: AuditSigningKey): SignedCheckpoint {
  const signature = sign(null, Buffer.from(signedBody(statement), 'utf8'), key.privateKey).toString('base64');
  return {
    tree_size: statement.tree_size,
    last_position: statement.last_position,
    root_hash: statement.root_hash,
    timestamp: statement.timestamp,
    key_id: key.keyId,
    signature,
  };
}

/** Whether `checkpoint` is signed by `publicKey` (Ed25519); false on any malformed field. */
export function verifyCheckpoint(checkpoint: SignedCheckpoint, publicKey: KeyObject): boolean {
  try {
    return verify(
      null,
      Buffer.from(signedBody(checkpoint), 'utf8'),
      publicKey,
      Buffer.from(checkpoint.signature, 'base64'),
    );
  } catch {
    return false;
  }
}

/** The signed part alone, in a fixed key order: what the API serves. */
export function publicCheckpoint(c: SignedCheckpoint): SignedCheckpoint {
  return {
    tree_size: c.tree_size,
    last_position: c.last_position,
    root_hash: c.root_hash,
    timestamp: c.timestamp,
    key_id: c.key_id,
    signature: c.signature,
  };
}
