import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import {
  CompactRange,
  consistencyProof,
  frontierLevels,
  inclusionProof,
  rangeRoot,
  type AuditLeaf,
  type NodeSource,
} from './merkle';

/** A leaf as the side index keeps it: the leaf's fields, its index in the tree and the event it stands for. */
export interface StoredLeaf extends AuditLeaf {
  readonly index: number;
  /** metadata.event_id (the ULID; the API shows `evt_` + it). */
  readonly event_id: string;
}

interface LeafRow {
  leaf_index: number;
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  hash: string;
}

const toLeaf = (row: LeafRow): StoredLeaf => ({
  index: row.leaf_index,
  position: row.position,
  event_id: row.event_id,
  stream_id: row.stream_id,
  revision: row.revision,
  hash: row.hash,
});

/**
 * The tree's side index, `CHECKPOINT_DIR/tree.db` (SQLite, fsynced): every leaf (its fields and
 * event id, looked up by event id for a proof) and every complete perfect subtree's root (level l,
 * index i covers leaves [i·2^l, (i+1)·2^l)), about 2n nodes. A proof is then O(log n) node reads
 * whatever the size of the log, and a proof request never reads the log beyond the one event.
 *
 * Derived data: it can be rebuilt from the log, and nothing here is trusted by itself. The writer
 * checks it against the latest checkpoint's frontier when it starts (and rebuilds it otherwise);
 * replay --verify recomputes the signed root from its leaves before using them to say what changed.
 * Leaves beyond the latest checkpoint may be here (the writer indexes new events as they come,
 * and signs every few seconds); the writer drops them when it starts.
 */
export class MerkleTreeStore implements NodeSource {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(readonly file: string) {
    this.db = openSqlite(file, 'durable');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS leaves (
        leaf_index INTEGER PRIMARY KEY,
        position   INTEGER NOT NULL,
        event_id   TEXT NOT NULL,
        stream_id  TEXT NOT NULL,
        revision   INTEGER NOT NULL,
        hash       TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS leaves_by_event ON leaves (event_id);
      CREATE TABLE IF NOT EXISTS nodes (
        level      INTEGER NOT NULL,
        node_index INTEGER NOT NULL,
        hash       BLOB NOT NULL,
        PRIMARY KEY (level, node_index)
      ) WITHOUT ROWID;
    `);
    this.stmts = {
      size: this.db.prepare<[], { n: number | null }>('SELECT MAX(leaf_index) + 1 AS n FROM leaves'),
      node: this.db.prepare<[number, number], { hash: Buffer }>(
        'SELECT hash FROM nodes WHERE level = ? AND node_index = ?',
      ),
      byEvent: this.db.prepare<[string], LeafRow>(
        'SELECT * FROM leaves WHERE event_id = ? ORDER BY leaf_index LIMIT 1',
      ),
      leaves: this.db.prepare<[number, number], LeafRow>(
        'SELECT * FROM leaves WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?',
      ),
      insertLeaf: this.db.prepare(
        'INSERT OR REPLACE INTO leaves (leaf_index, position, event_id, stream_id, revision, hash) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertNode: this.db.prepare('INSERT OR REPLACE INTO nodes (level, node_index, hash) VALUES (?, ?, ?)'),
      dropLeaves: this.db.prepare('DELETE FROM leaves WHERE leaf_index >= ?'),
      levels: this.db.prepare<[], { level: number }>('SELECT DISTINCT level FROM nodes'),
      dropNodes: this.db.prepare('DELETE FROM nodes WHERE level = ? AND node_index >= ?'),
    };
  }

  /** Leaves indexed (0 when empty). */
  size(): number {
    return this.stmts.size.get()?.n ?? 0;
  }

  node(level: number, index: number): Buffer {
    const row = this.stmts.node.get(level, index);
    if (!row)
      throw new Error(
        `tree.db has no node at level ${level} index ${index}: rebuild it (the checkpoint writer does when it starts)`,
      );
    return row.hash;
  }

  leafByEventId(eventId: string): StoredLeaf | null {
    const row = this.stmts.byEvent.get(eventId);
    return row ? toLeaf(row) : null;
  }

  leaves(fromIndex: number, limit: number): StoredLeaf[] {
    return this.stmts.leaves.all(fromIndex, limit).map(toLeaf);
  }

  /**
   * Appends leaves after `range` (which must describe this store's tree) in one transaction,
   * storing each node they complete; returns the range after them (`range` itself is unchanged, so
   * a failed write leaves the caller's state as it was).
   */
  append(
    range: CompactRange,
    leaves: ReadonlyArray<{ readonly leaf: AuditLeaf; readonly eventId: string; readonly hash: Buffer }>,
  ): CompactRange {
    const next = range.clone();
    this.db.transaction(() => {
      for (const { leaf, eventId, hash } of leaves) {
        this.stmts.insertLeaf.run(next.size, leaf.position, eventId, leaf.stream_id, leaf.revision, leaf.hash);
        next.append(hash, (level, index, node) => void this.stmts.insertNode.run(level, index, node));
      }
    })();
    return next;
  }

  /** Drops every leaf from `size` on and every node that covers one of them. */
  truncate(size: number): void {
    this.db.transaction(() => {
      this.stmts.dropLeaves.run(size);
      // Level l keeps the nodes wholly below `size`: indexes < floor(size / 2^l).
      for (const { level } of this.stmts.levels.all()) this.stmts.dropNodes.run(level, Math.floor(size / 2 ** level));
    })();
  }

  /** The compact range of the first `size` leaves, from the stored nodes. */
  frontier(size: number): Buffer[] {
    let offset = 0;
    return frontierLevels(size).map((level) => {
      const node = this.node(level, offset / 2 ** level);
      offset += 2 ** level;
      return node;
    });
  }

  root(size: number): Buffer {
    return rangeRoot(this, 0, size);
  }

  inclusionProof(index: number, size: number): Buffer[] {
    return inclusionProof(this, index, size);
  }

  consistencyProof(first: number, second: number): Buffer[] {
    return consistencyProof(this, first, second);
  }

  close(): void {
    this.db.close();
  }
}
