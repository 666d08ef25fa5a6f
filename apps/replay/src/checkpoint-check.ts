import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditCheckpointConfig } from '@app/platform/audit-checkpoints/audit-checkpoint-config';
import { verifyCheckpoint, type StoredCheckpoint } from '@app/platform/audit-checkpoints/checkpoint';
import { CheckpointDirectory, checkpointFileName } from '@app/platform/audit-checkpoints/checkpoint-directory';
import { auditLeafOf } from '@app/platform/audit-checkpoints/log-leaves';
import { CompactRange, leafHash } from '@app/platform/audit-checkpoints/merkle';
import { MerkleTreeStore, type StoredLeaf } from '@app/platform/audit-checkpoints/merkle-tree-store';
import { loadSigningKey } from '@app/platform/audit-checkpoints/signing-key';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import type { Finding } from './report';

/** Differences named one by one per kind; the rest are counted. */
const NAMED = 10;
const PAGE = 2_000;

/** A stream's signed events the log lacks: counted, the first few kept to be named. */
interface Missing {
  count: number;
  first: StoredLeaf;
  last: StoredLeaf;
  /** The first NAMED of them, each marked as passed by a later event of the log or left after its last one. */
  samples: Array<{ leaf: StoredLeaf; atEnd: boolean }>;
  /** Left after the log's last event: the first position and how many (a truncated tail). */
  atEnd: { count: number; first: number } | null;
}

/**
 * `replay --verify` against the latest signed checkpoint (docs/decisions/audit.md, "Signed
 * checkpoints"), beside the chain check, in the same pass over the log: the log's events up to the
 * checkpoint's last position, as leaves in position order, must give its signed tree size and root.
 * That catches what the per-stream chains cannot: a truncated log, a deleted stream, a suffix
 * rewritten with recomputed chain hashes, events swapped between streams.
 *
 * To say which of those it is, the signed leaves (the checkpoint writer's side index, tree.db) are
 * walked beside the log, matched by position. They are trusted only once they give the signed root
 * themselves (checked in the same walk); otherwise only the root's difference is reported.
 */
export class CheckpointCheck {
  private readonly out: Finding[] = [];
  private readonly named = new Map<string, number>();
  private readonly counted = new Map<string, number>();
  private checkpoint: StoredCheckpoint | null = null;
  private summary: string;
  private tree: MerkleTreeStore | null = null;
  // The log's tree, and the signed leaves' (which must give the signed root for the diagnosis to stand).
  private readonly logRange = CompactRange.empty();
  private readonly signedRange = CompactRange.empty();
  private signed: StoredLeaf[] = [];
  private signedAt = 0;
  private nextIndex = 0;
  // Diagnoses, kept until the signed leaves are known to be the signed ones.
  private readonly diagnoses: Finding[] = [];
  private readonly missing = new Map<string, Missing>();

  private constructor(private readonly settings: AuditCheckpointConfig) {
    this.summary = `checkpoint: none in ${settings.dir}: completeness not checked (the writer signs one within ${Math.ceil(settings.intervalMs / 1000)} s of a write)`;
  }

  /** Reads the latest checkpoint the configured key signed (each newer one that does not verify is a finding). */
  static open(settings: AuditCheckpointConfig): CheckpointCheck {
    const check = new CheckpointCheck(settings);
    const directory = new CheckpointDirectory(settings.dir);
    const sizes = directory.sizes();
    if (!sizes.length) return check;
    const key = loadSigningKey(settings, { create: false });
    if (!key) {
      check.summary = `checkpoint: ${sizes.length} in ${settings.dir}, not checked`;
      check.out.push({
        kind: 'checkpoint',
        resource: `checkpoints in ${settings.dir}`,
        message: `no key to verify them with: AUDIT_SIGNING_KEY is unset and ${settings.signingKeyFile} is missing`,
      });
      return check;
    }
    for (let i = sizes.length - 1; i >= 0 && !check.checkpoint; i--) {
      const file = checkpointFileName(sizes[i]);
      let checkpoint: StoredCheckpoint;
      try {
        checkpoint = directory.read(join(settings.dir, file));
      } catch (error) {
        check.out.push({
          kind: 'checkpoint',
          resource: `checkpoint file ${file}`,
          message: `unreadable: ${(error as Error).message}`,
        });
        continue;
      }
      if (checkpoint.key_id !== key.keyId || !verifyCheckpoint(checkpoint, key.publicKey)) {
        check.out.push({
          kind: 'checkpoint',
          resource: `checkpoint file ${file}`,
          message: `its signature does not verify with the configured key ${key.keyId.slice(0, 16)}… (from ${key.source})`,
        });
        continue;
      }
      check.checkpoint = checkpoint;
    }
    const cp = check.checkpoint;
    if (!cp) {
      check.summary = `checkpoint: no checkpoint in ${settings.dir} verifies with the configured key`;
      return check;
    }
    const treeFile = join(settings.dir, 'tree.db');
    if (existsSync(treeFile)) check.tree = new MerkleTreeStore(treeFile);
    check.summary = `checkpoint: tree_size ${cp.tree_size} up to position ${cp.last_position}, signed ${new Date(cp.timestamp).toISOString()} by key ${cp.key_id.slice(0, 16)}…`;
    return check;
  }

  /** Position of the last event the checkpoint covers (0 without one). */
  get lastPosition(): number {
    return this.checkpoint?.last_position ?? 0;
  }

  /** One event of the log, in position order, with its chain hash (stored, or upcast for events older than chains). */
  fold(event: RecordedEvent, chainHash: string): void {
    const cp = this.checkpoint;
    if (!cp || event.position > cp.last_position) return;
    const leaf = auditLeafOf(event, chainHash);
    this.logRange.append(leafHash(leaf));
    if (!this.tree) return;
    for (let s = this.peek(); s && s.position < event.position; s = this.peek()) this.noteMissing(this.take(), false);
    const s = this.peek();
    if (!s || s.position > event.position) {
      this.diagnose(
        'inserted',
        `position ${event.position}`,
        `inserted: stream ${event.streamId} revision ${event.revision} is not in the checkpoint, which covers this position`,
      );
      return;
    }
    this.take();
    if (s.stream_id !== event.streamId || s.revision !== event.revision) {
      this.diagnose(
        'reordered',
        `position ${event.position}`,
        `reordered: signed as stream ${s.stream_id} revision ${s.revision}, the log has stream ${event.streamId} revision ${event.revision} there`,
      );
    } else if (s.hash !== chainHash) {
      this.diagnose(
        'rewritten',
        `position ${event.position}`,
        `rewritten: stream ${s.stream_id} revision ${s.revision} differs from the event signed at this position (its chain hash was ${s.hash.slice(0, 16)}…, is ${chainHash.slice(0, 16)}…)`,
      );
    }
  }

  /** After the pass: `streams` every stream of the log, `logEnd` the position of its last event. */
  end(streams: ReadonlySet<string>, logEnd: number): void {
    const cp = this.checkpoint;
    if (!cp) return;
    if (this.tree) for (let s = this.peek(); s; s = this.peek()) this.noteMissing(this.take(), true);
    const root = this.logRange.root().toString('hex');
    const whole = this.logRange.size === cp.tree_size && root === cp.root_hash;
    this.summary += whole ? ': the log gives its tree size and root' : ': the log DIFFERS';
    if (whole) return;
    this.out.push({
      kind: 'checkpoint',
      resource: `checkpoint tree_size ${cp.tree_size}`,
      message: `the log's ${this.logRange.size} event(s) up to position ${cp.last_position} hash to ${root.slice(0, 16)}…, not the signed root ${cp.root_hash.slice(0, 16)}…`,
    });
    // The signed leaves say what changed only if they are the ones signed.
    const trusted =
      this.tree && this.signedRange.size === cp.tree_size && this.signedRange.root().toString('hex') === cp.root_hash;
    if (!trusted) {
      this.out.push({
        kind: 'checkpoint',
        resource: `checkpoint tree_size ${cp.tree_size}`,
        message: `${this.tree ? 'the side index tree.db does not give the signed root' : 'no side index tree.db'} in ${this.settings.dir}: what changed cannot be located`,
      });
      return;
    }
    this.reportMissing(cp, streams, logEnd);
    this.out.push(...this.diagnoses);
    for (const [kind, count] of this.counted)
      this.out.push({
        kind: 'checkpoint',
        resource: `checkpoint tree_size ${cp.tree_size}`,
        message: `${kind}: ${count} more event(s)`,
      });
  }

  findings(): Finding[] {
    return this.out;
  }

  /** One line for the report, whatever the outcome. */
  status(): string {
    return this.summary;
  }

  close(): void {
    this.tree?.close();
    this.tree = null;
  }

  private peek(): StoredLeaf | undefined {
    const cp = this.checkpoint!;
    if (this.signedAt >= this.signed.length && this.nextIndex < cp.tree_size) {
      this.signed = this.tree!.leaves(this.nextIndex, Math.min(PAGE, cp.tree_size - this.nextIndex));
      this.signedAt = 0;
      this.nextIndex += this.signed.length;
      if (!this.signed.length) this.nextIndex = cp.tree_size; // the side index ends early: it will not give the root
    }
    return this.signed[this.signedAt];
  }

  private take(): StoredLeaf {
    const s = this.signed[this.signedAt++];
    this.signedRange.append(leafHash(s));
    return s;
  }

  private noteMissing(s: StoredLeaf, atEnd: boolean): void {
    let m = this.missing.get(s.stream_id);
    if (!m) this.missing.set(s.stream_id, (m = { count: 0, first: s, last: s, samples: [], atEnd: null }));
    m.count += 1;
    m.last = s;
    if (m.samples.length < NAMED) m.samples.push({ leaf: s, atEnd });
    if (atEnd) m.atEnd = m.atEnd ? { count: m.atEnd.count + 1, first: m.atEnd.first } : { count: 1, first: s.position };
  }

  /**
   * A stream the log no longer has at all was deleted (unless all of it lay past the log's end).
   * Otherwise, signed events left after the log's last event were cut off with its tail
   * (truncated), when the log ends before them; any other is a removed event (which the stream's
   * chain names too, unless it was its last).
   */
  private reportMissing(cp: StoredCheckpoint, streams: ReadonlySet<string>, logEnd: number): void {
    let truncated: { count: number; first: number } | null = null;
    for (const [stream, m] of this.missing) {
      // A stream gone whose events all lay after the log's end went with the tail: that is the truncation.
      if (!streams.has(stream) && m.first.position <= logEnd) {
        const span =
          m.first.position === m.last.position
            ? `position ${m.first.position}`
            : `positions ${m.first.position}…${m.last.position}`;
        this.diagnose(
          'deleted',
          `stream ${stream}`,
          `deleted: its ${m.count} signed event(s) (revisions ${m.first.revision}…${m.last.revision}, ${span}) are not in the log`,
        );
        continue;
      }
      const cut = m.atEnd && m.atEnd.first > logEnd ? m.atEnd : null;
      if (cut)
        truncated = truncated
          ? { count: truncated.count + cut.count, first: Math.min(truncated.first, cut.first) }
          : { ...cut };
      const removed = m.samples.filter((x) => !(cut && x.atEnd));
      for (const { leaf } of removed)
        this.diagnose(
          'missing',
          `stream ${stream} revision ${leaf.revision}`,
          `missing: signed at position ${leaf.position}, not in the log`,
        );
      const unnamed = m.count - (cut?.count ?? 0) - removed.length;
      if (unnamed > 0) this.counted.set('missing', (this.counted.get('missing') ?? 0) + unnamed);
    }
    if (truncated) {
      this.diagnose(
        'truncated',
        `log after position ${logEnd}`,
        `truncated: the checkpoint of tree_size ${cp.tree_size} signed events up to position ${cp.last_position}; ${truncated.count} signed event(s) from position ${truncated.first} are not in the log`,
      );
    }
  }

  private diagnose(kind: string, resource: string, message: string): void {
    const n = this.named.get(kind) ?? 0;
    if (n < NAMED) {
      this.named.set(kind, n + 1);
      this.diagnoses.push({ kind: 'checkpoint', resource, message });
    } else {
      this.counted.set(kind, (this.counted.get(kind) ?? 0) + 1);
    }
  }
}
