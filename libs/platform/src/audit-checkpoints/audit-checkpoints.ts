import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, type PlatformConfig } from '../config/platform-config';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../event-store/event-store.port';
import { upcast } from '../event-store/upcasters';
import {
  AUDIT_CHECKPOINT_DEFAULTS,
  auditCheckpointConfig,
  type AuditCheckpointConfig,
} from './audit-checkpoint-config';
import { publicCheckpoint, verifyCheckpoint, type SignedCheckpoint, type StoredCheckpoint } from './checkpoint';
import { CheckpointDirectory } from './checkpoint-directory';
import { ChainHashes, auditLeafOf, storedForm } from './log-leaves';
import { leafHash, type AuditLeaf } from './merkle';
import { MerkleTreeStore, type StoredLeaf } from './merkle-tree-store';
import { loadSigningKey, type AuditSigningKey } from './signing-key';

/** The settings of this process: from the platform configuration, or read from the environment when it has none. */
export function checkpointSettings(config: PlatformConfig): AuditCheckpointConfig {
  return (
    (config as PlatformConfig & { auditCheckpoints?: AuditCheckpointConfig }).auditCheckpoints ??
    auditCheckpointConfig(process.env, config.dataDir)
  );
}

/** An event located in the tree and read back from the log as it is now. */
export interface LocatedEvent {
  /** What the side index recorded when the writer folded the event. */
  readonly indexed: StoredLeaf;
  /** The event at that position in the log now, upcast as every reader sees it. */
  readonly event: RecordedEvent;
  /** Its leaf as the log has it now (a proof is computed for this leaf: an altered event fails it). */
  readonly leaf: AuditLeaf;
}

export interface InclusionProof {
  readonly leafIndex: number;
  readonly leaf: AuditLeaf;
  readonly leafHash: string;
  readonly auditPath: string[];
  readonly checkpoint: SignedCheckpoint;
}

export interface ConsistencyProof {
  readonly first: SignedCheckpoint;
  readonly second: SignedCheckpoint;
  readonly proof: string[];
}

/**
 * The checkpoint store of this process: the directory of signed checkpoints, the tree's side
 * index and the signing key, opened once; and what the API serves from them (the checkpoints,
 * inclusion and consistency proofs). The writer (AuditCheckpointWriter) signs through it.
 */
@Injectable()
export class AuditCheckpoints implements OnApplicationShutdown {
  readonly settings: AuditCheckpointConfig;
  readonly directory: CheckpointDirectory;
  private treeStore: MerkleTreeStore | null = null;
  private signingKey: AuditSigningKey | null = null;
  /** Checkpoints whose signature was checked, by tree size: files are immutable. */
  private readonly verified = new Map<number, boolean>();
  readonly raw: EventStore;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig, @Inject(EVENT_STORE) store: EventStore) {
    this.settings = checkpointSettings(config);
    this.directory = new CheckpointDirectory(this.settings.dir);
    this.raw = storedForm(store);
  }

  /** The key, generated into DATA_DIR on first use when AUDIT_SIGNING_KEY is unset. */
  get key(): AuditSigningKey {
    return (this.signingKey ??= loadSigningKey(this.settings, { create: true })!);
  }

  get tree(): MerkleTreeStore {
    if (!this.treeStore) {
      mkdirSync(this.settings.dir, { recursive: true });
      this.treeStore = new MerkleTreeStore(join(this.settings.dir, 'tree.db'));
    }
    return this.treeStore;
  }

  verifies(checkpoint: SignedCheckpoint): boolean {
    const known = this.verified.get(checkpoint.tree_size);
    if (known !== undefined) return known;
    const ok = checkpoint.key_id === this.key.keyId && verifyCheckpoint(checkpoint, this.key.publicKey);
    this.verified.set(checkpoint.tree_size, ok);
    return ok;
  }

  /** The newest checkpoint this key signed, or null. */
  latest(): StoredCheckpoint | null {
    const sizes = this.directory.sizes();
    for (let i = sizes.length - 1; i >= 0; i--) {
      const checkpoint = this.readChecked(sizes[i]);
      if (checkpoint) return checkpoint;
    }
    return null;
  }

  /** Checkpoints newest first, `limit` of them below the tree size `before` (a cursor). */
  list(limit: number, before?: number): { items: SignedCheckpoint[]; hasMore: boolean } {
    const sizes = this.directory
      .sizes()
      .filter((s) => before === undefined || s < before)
      .reverse();
    const items: SignedCheckpoint[] = [];
    for (const size of sizes) {
      if (items.length === limit) return { items, hasMore: true };
      const checkpoint = this.readChecked(size);
      if (checkpoint) items.push(publicCheckpoint(checkpoint));
    }
    return { items, hasMore: false };
  }

  /** The checkpoint over exactly `treeSize` leaves, if this key signed one. */
  checkpointOfSize(treeSize: number): StoredCheckpoint | null {
    return this.directory.sizes().includes(treeSize) ? this.readChecked(treeSize) : null;
  }

  /** Where the writer indexed event `eventId` (the ULID), and that event as the log has it now; null when unknown or no longer there. */
  async locate(eventId: string): Promise<LocatedEvent | null> {
    const indexed = this.tree.leafByEventId(eventId);
    if (!indexed) return null;
    // The event after the previous leaf's: one event read, from a position the log gave out
    // (EventStoreDB reads $all from real positions only, so not `position - 1`).
    const after = indexed.index === 0 ? 0 : (this.tree.leaves(indexed.index - 1, 1)[0]?.position ?? 0);
    const [stored] = await this.raw.readAll({ after, limit: 1 });
    if (!stored || stored.position !== indexed.position || stored.metadata.event_id !== eventId) return null;
    const hash = await new ChainHashes(this.raw).of(stored);
    return { indexed, event: upcast(stored), leaf: auditLeafOf(stored, hash) };
  }

  /** The inclusion proof of a located event in `checkpoint` (which must cover its leaf). */
  prove(located: LocatedEvent, checkpoint: SignedCheckpoint): InclusionProof {
    const index = located.indexed.index;
    return {
      leafIndex: index,
      leaf: located.leaf,
      leafHash: leafHash(located.leaf).toString('hex'),
      auditPath: this.tree.inclusionProof(index, checkpoint.tree_size).map((h) => h.toString('hex')),
      checkpoint: publicCheckpoint(checkpoint),
    };
  }

  /** The consistency proof between two checkpoints this key signed (RFC 9162 §2.1.4), or null when either is unknown. */
  consistency(firstSize: number, secondSize: number): ConsistencyProof | null {
    const [first, second] = [this.checkpointOfSize(firstSize), this.checkpointOfSize(secondSize)];
    if (!first || !second || firstSize > secondSize || this.tree.size() < secondSize) return null;
    return {
      first: publicCheckpoint(first),
      second: publicCheckpoint(second),
      proof: this.tree.consistencyProof(firstSize, secondSize).map((h) => h.toString('hex')),
    };
  }

  /** How often a checkpoint is signed, at the latest, once the log grew (for messages). */
  get intervalMs(): number {
    return this.settings.intervalMs ?? AUDIT_CHECKPOINT_DEFAULTS.intervalMs;
  }

  onApplicationShutdown(): void {
    this.treeStore?.close();
    this.treeStore = null;
  }

  private readChecked(size: number): StoredCheckpoint | null {
    try {
      const checkpoint = this.directory.get(size);
      return checkpoint && this.verifies(checkpoint) ? checkpoint : null;
    } catch {
      return null;
    }
  }
}
