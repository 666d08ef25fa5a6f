import { Query } from '@nestjs/cqrs';
import type { SignedCheckpoint } from '@app/platform/audit-checkpoints/checkpoint';
import type { AuditLeaf } from '@app/platform/audit-checkpoints/merkle';
import type { Actor } from '../../command-handling';

/**
 * `GET /events/{id}/proof`: the inclusion proof of one event in the latest signed checkpoint
 * (RFC 9162 §2.1.3), all an auditor needs to check it offline (examples/verify-proof.mjs).
 */
export interface EventProof {
  readonly object: 'event_proof';
  /** `evt_…`, as GET /events shows it. */
  readonly event_id: string;
  /** The leaf the event is in the tree, as the log has it now: an altered event fails the proof. */
  readonly leaf: AuditLeaf;
  /** SHA-256(0x00 || canonical JSON of `leaf`), hex. */
  readonly leaf_hash: string;
  /** 0-based index of the leaf in the tree (the log's events in position order). */
  readonly leaf_index: number;
  /** Sibling hashes from the leaf up (hex), deepest first. */
  readonly audit_path: readonly string[];
  readonly checkpoint: SignedCheckpoint;
  /** The checkpoints' Ed25519 key (SubjectPublicKeyInfo PEM); pin it from GET /admin/audit/checkpoints or out of band. */
  readonly public_key: string;
}

export class GetEventProofQuery extends Query<EventProof> {
  constructor(
    readonly actor: Actor,
    readonly eventId: string,
  ) {
    super();
  }
}
