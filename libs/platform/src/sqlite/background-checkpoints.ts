import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * WAL checkpoints on a thread of their own (issue 20). SQLite checkpoints on the connection whose
 * commit took the WAL past `wal_autocheckpoint` pages (1000): that commit then copies the WAL into
 * the database and syncs both, on the thread that committed. For the stores written from a
 * process's main thread (the projector's read models: 10+ documents and their index pages per
 * transfer) that was most of the time a commit took, with the event loop stopped.
 *
 * Here the main connection leaves checkpoints to one thread per process, with a connection of its
 * own to each file, which runs a PASSIVE checkpoint (it never waits for, or blocks, a writer or a
 * reader) of each every `intervalMs`.
 * `wal_autocheckpoint` stays on at a larger bound, so the WAL stays bounded should the thread
 * ever fall behind or die. Nothing about durability changes: a checkpoint only moves committed
 * pages from the WAL into the database.
 */
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
let timer = null;
const tick = () => {
  for (const db of files.values()) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (msg) => {
  if (msg.add) {
    try {
      const db = new Database(msg.add);
      db.pragma('busy_timeout = 0');
      files.set(msg.add, db);
    } catch {}
  } else if (msg.remove) {
    files.get(msg.remove)?.close();
    files.delete(msg.remove);
    parentPort.postMessage({ removed: msg.remove });
  }
});
`;

export interface BackgroundCheckpointOptions {
  /** How often the thread checkpoints. */
  readonly intervalMs?: number;
  /** Each connection's own checkpoints, a backstop: only past this many WAL pages. */
  readonly autocheckpointPages?: number;
}

/** The process's checkpoint thread (one V8 isolate, ~10 MB, for every file) and the files it checkpoints, with their users. */
let thread: CheckpointThread | null = null;
const users = new Map<string, number>();

/**
 * Leaves `db`'s checkpoints to the process's checkpoint thread (started with its first file).
 * Every connection of the process that writes the file must come here: one left at the default
 * `wal_autocheckpoint` would checkpoint the whole WAL the others let grow, on its own commit.
 * Returns the release, to call before closing `db`.
 */
export function checkpointInBackground(
  db: Database.Database,
  file: string,
  options: BackgroundCheckpointOptions = {},
): () => Promise<void> {
  db.pragma(`wal_autocheckpoint = ${options.autocheckpointPages ?? 10_000}`);
  const key = resolve(file);
  thread ??= new CheckpointThread(options.intervalMs ?? 200);
  const mine = thread;
  users.set(key, (users.get(key) ?? 0) + 1);
  if (users.get(key) === 1) mine.add(key);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const left = users.get(key)! - 1;
    if (left > 0) return void users.set(key, left);
    users.delete(key);
    await mine.remove(key);
    if (users.size === 0 && thread === mine) {
      thread = null;
      await mine.stop();
    }
  };
}

class CheckpointThread {
  private readonly worker: Worker;
  private readonly removing = new Map<string, () => void>();
  private exited = false;

  constructor(intervalMs: number) {
    this.worker = new Worker(CHECKPOINTER_SOURCE, {
      eval: true,
      workerData: { intervalMs, driver: require.resolve('better-sqlite3') },
    });
    // A checkpoint that fails is retried at the next tick; the backstop bounds the WAL meanwhile.
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.exited = true;
      this.removing.forEach((done) => done());
    });
    this.worker.on('message', (msg: { removed?: string }) => {
      if (msg.removed) this.removing.get(msg.removed)?.();
    });
    this.worker.unref();
  }

  add(file: string): void {
    if (!this.exited) this.worker.postMessage({ add: file });
  }

  /** Resolves once the thread has closed its connection to `file` (before the caller closes its own). */
  remove(file: string): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise<void>((done) => {
      // Held while it answers: an unref'd thread would let a process with nothing else to do exit first.
      this.worker.ref();
      this.removing.set(file, () => {
        this.removing.delete(file);
        if (!this.removing.size) this.worker.unref();
        done();
      });
      this.worker.postMessage({ remove: file });
    });
  }

  async stop(): Promise<void> {
    if (!this.exited) await this.worker.terminate();
  }
}
