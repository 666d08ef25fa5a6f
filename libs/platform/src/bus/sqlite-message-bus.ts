import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite/open-sqlite';
import { WalSync } from '../sqlite/wal-sync';
import { checkpointInBackground } from '../sqlite/background-checkpoints';
import { pollingSubscription } from '../event-store/polling-subscription';
import type { BusMessage, BusSubscription, ConsumedMessage, MessageBus, SubscribeOptions } from './message-bus.port';

interface MessageRow {
  position: number;
  topic: string;
  key: string;
  value: string;
  headers: string;
}

/** A page of messages as read; `handled(position)` each time a prefix of it is done. */
type PageHandler = (rows: readonly MessageRow[], handled: (position: number) => void) => Promise<void>;

/** One page read from the queue, as one item of the polling subscription. */
interface Page {
  readonly position: number;
  readonly rows: readonly MessageRow[];
}

const consumed = (topic: string, row: MessageRow): ConsumedMessage => ({
  topic,
  partition: 0,
  offset: String(row.position),
  key: row.key,
  value: row.value,
  headers: JSON.parse(row.headers),
});

/**
 * Embedded bus: a durable queue in DATA_DIR, so the webhook worker's consumer offset and the
 * messages after it survive a restart exactly as they would with Kafka. One partition per topic;
 * each consumer group keeps its committed offset. As with one Kafka partition, one member of a
 * group consumes at a time; another member of the same group waits and takes over from the
 * committed offset when the active one stops.
 */
export class SqliteMessageBus implements MessageBus {
  private readonly db: Database.Database;
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions = new Set<BusSubscription>();
  /** Per topic and group: settles when every member that joined so far has had its turn. */
  private readonly groupTurns = new Map<string, Promise<void>>();
  private readonly stmts;
  /** A publish resolves once fsynced, the fsync shared and off the event loop (wal-sync.ts). */
  private readonly wal: WalSync;
  /** Started by the first write: WAL checkpoints on a thread, not on a publish (background-checkpoints.ts). */
  private releaseCheckpoints: (() => Promise<void>) | null = null;

  constructor(
    private readonly file: string,
    private readonly pollIntervalMs = 100,
  ) {
    this.db = openSqlite(file, 'durable');
    this.wal = new WalSync(this.db, file);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS messages (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        topic TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS messages_topic ON messages (topic, position);
      CREATE TABLE IF NOT EXISTS group_offsets (
        topic TEXT NOT NULL, group_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (topic, group_id)
      );
    `);
    this.stmts = {
      insert: this.db.prepare('INSERT INTO messages (topic, key, value, headers) VALUES (?, ?, ?, ?)'),
      read: this.db.prepare<[string, number], MessageRow>(
        'SELECT * FROM messages WHERE topic = ? AND position > ? ORDER BY position LIMIT 200',
      ),
      head: this.db.prepare<[string], { p: number | null }>('SELECT MAX(position) AS p FROM messages WHERE topic = ?'),
      committed: this.db.prepare<[string, string], { position: number }>(
        'SELECT position FROM group_offsets WHERE topic = ? AND group_id = ?',
      ),
      commit: this.db.prepare(
        `INSERT INTO group_offsets (topic, group_id, position) VALUES (?, ?, ?)
         ON CONFLICT (topic, group_id) DO UPDATE SET position = excluded.position`,
      ),
    };
  }

  async publish(topic: string, messages: readonly BusMessage[]): Promise<void> {
    this.releaseCheckpoints ??= checkpointInBackground(this.db, this.file);
    this.db.transaction(() => {
      for (const m of messages) this.stmts.insert.run(topic, m.key, m.value, JSON.stringify(m.headers ?? {}));
    })();
    // Acknowledged (the publisher moves its checkpoint) only once on disk; consumers may read the
    // messages at once: one that reads a message a power cut then takes back has at most acted early.
    this.listeners.forEach((notify) => notify());
    await this.wal.synced();
  }

  subscribe(
    topic: string,
    groupId: string,
    handler: (message: ConsumedMessage) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<BusSubscription> {
    return this.join(topic, groupId, options, async (rows, handled) => {
      for (const row of rows) {
        await handler(consumed(topic, row));
        handled(row.position);
      }
    });
  }

  subscribeBatches(
    topic: string,
    groupId: string,
    handler: (messages: readonly ConsumedMessage[]) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<BusSubscription> {
    return this.join(topic, groupId, options, async (rows, handled) => {
      await handler(rows.map((row) => consumed(topic, row)));
      handled(rows[rows.length - 1].position);
    });
  }

  private async join(
    topic: string,
    groupId: string,
    options: SubscribeOptions,
    handle: PageHandler,
  ): Promise<BusSubscription> {
    // A new group starting at the head records that now, so what is published after subscribe()
    // resolved, or while the group is stopped, is delivered later instead of skipped.
    if (!this.stmts.committed.get(topic, groupId)) {
      this.stmts.commit.run(topic, groupId, options.fromBeginning ? 0 : (this.stmts.head.get(topic)?.p ?? 0));
    }
    const groupKey = `${topic}\u0000${groupId}`;
    const previous = this.groupTurns.get(groupKey) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    this.groupTurns.set(
      groupKey,
      previous.then(() => turn),
    );

    let stopped = false;
    let member: BusSubscription | null = null;
    void previous.then(() => {
      if (!stopped) member = this.consume(topic, groupId, handle, { onError: options.onError, onStopped: release });
    });
    const subscription: BusSubscription = {
      stop: async () => {
        stopped = true;
        this.subscriptions.delete(subscription);
        await member?.stop();
        release();
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Runs the group's active member from its committed offset; a failing handler ends its turn.
   * The offset is committed once per page read (what was handled of it, also when the handler
   * failed part-way), without waiting for the disk: a commit a crash takes back only redelivers
   * what consumers already dedupe by event id (at-least-once either way). A page is what the
   * queue holds past the offset when read, so the commits are as few as the reads: one per
   * publish when keeping up, one per 200 messages behind a backlog.
   */
  private consume(
    topic: string,
    groupId: string,
    handle: PageHandler,
    hooks: { onError?: (error: unknown) => void; onStopped(): void },
  ): BusSubscription {
    let handled: number | null = null;
    const commitHandled = () => {
      if (handled !== null && this.db.open) this.stmts.commit.run(topic, groupId, handled);
      handled = null;
    };
    const inner = pollingSubscription<Page>({
      readAfter: async (after) => {
        const rows = this.stmts.read.all(topic, after);
        return rows.length ? [{ position: rows[rows.length - 1].position, rows }] : [];
      },
      onAppend: (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      pollIntervalMs: this.pollIntervalMs,
      after: this.stmts.committed.get(topic, groupId)?.position ?? 0,
      onError: (error) => {
        hooks.onStopped();
        if (hooks.onError) hooks.onError(error);
        else console.error('bus consumer stopped', error);
      },
      handler: async ({ rows }) => {
        try {
          await handle(rows, (position) => (handled = position));
        } finally {
          commitHandled();
        }
      },
    });
    return {
      stop: async () => {
        await inner.stop();
        commitHandled();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.releaseCheckpoints?.();
    await this.wal.close(() => this.db.open && this.db.close());
  }
}
