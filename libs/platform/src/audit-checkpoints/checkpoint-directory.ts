import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { StoredCheckpoint } from './checkpoint';

const FILE = /^checkpoint-(\d{20})\.json$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** The file of the checkpoint over `treeSize` leaves: named by its size, so names sort as the log grows. */
export const checkpointFileName = (treeSize: number) => `checkpoint-${String(treeSize).padStart(20, '0')}.json`;

/**
 * The checkpoint store: a directory outside the event store (`CHECKPOINT_DIR`), one JSON file per
 * checkpoint, append-only. A file is written whole to a temporary name, fsynced, then hard-linked
 * to its final name, which fails if that name exists: a checkpoint is never overwritten, and a
 * reader never sees half a file. Two writers that overlap (a lease handed over late) and sign the
 * same size leave the first file; each size is one tree, since both fold the same log.
 */
export class CheckpointDirectory {
  constructor(readonly dir: string) {}

  /** Tree sizes of every checkpoint, ascending. */
  sizes(): number[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .map((name) => FILE.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  /** The checkpoint over `treeSize` leaves, or null (none, or a file that does not parse: named by `read`). */
  get(treeSize: number): StoredCheckpoint | null {
    const file = join(this.dir, checkpointFileName(treeSize));
    return existsSync(file) ? this.read(file) : null;
  }

  latest(): StoredCheckpoint | null {
    const sizes = this.sizes();
    return sizes.length ? this.get(sizes[sizes.length - 1]) : null;
  }

  /** Parses a checkpoint file; throws naming the file when it is not one. */
  read(file: string): StoredCheckpoint {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as StoredCheckpoint;
    const integer = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
    const ok =
      integer(parsed.tree_size) &&
      integer(parsed.last_position) &&
      integer(parsed.timestamp) &&
      HEX64.test(String(parsed.root_hash)) &&
      HEX64.test(String(parsed.key_id)) &&
      typeof parsed.signature === 'string' &&
      Array.isArray(parsed.frontier) &&
      parsed.frontier.every((h) => HEX64.test(String(h)));
    if (!ok) throw new Error(`${file} is not a checkpoint`);
    return parsed;
  }

  /** Writes a new checkpoint; false when one of that size exists already (it is left as it is). */
  write(checkpoint: StoredCheckpoint): boolean {
    mkdirSync(this.dir, { recursive: true });
    const final = join(this.dir, checkpointFileName(checkpoint.tree_size));
    const temporary = join(this.dir, `.checkpoint-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    writeDurably(temporary, `${JSON.stringify(checkpoint, null, 2)}\n`);
    try {
      linkSync(temporary, final);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      unlinkSync(temporary);
    }
    syncDirectory(this.dir);
    return true;
  }

  /** The public key beside the checkpoints, for auditors who read the directory (not trusted by the verification: it uses the configured key). */
  writePublicKey(pem: string): void {
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, 'public-key.pem');
    if (existsSync(file) && readFileSync(file, 'utf8') === pem) return;
    writeDurably(file, pem);
  }
}

function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o644);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse to fsync a directory; the file itself is synced.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
