import Database from 'better-sqlite3';
import { pollingSubscription } from '../event-store/polling-subscription';
import type { BusMessage, BusSubscription, ConsumedMessage, MessageBus } from './message-bus.port';

interface MessageRow {
  position: number;
  topic: string;
  key: string;
  value: string;
  headers: string;
}

/**
 * Embedded bus: a durable queue in DATA_DIR, so the webhook worker's consumer offset and the
 * messages after it survive a restart exactly as they would with Kafka. One partition per topic;
 * each consumer group keeps its committed offset.
 */
export class SqliteMessageBus implements MessageBus {
  private readonly db: Database.Database;
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions = new Set<BusSubscription>();

  constructor(file: string, private readonly pollIntervalMs = 100) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
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
  }

  async publish(topic: string, messages: readonly BusMessage[]): Promise<void> {
    const insert = this.db.prepare('INSERT INTO messages (topic, key, value, headers) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const m of messages) insert.run(topic, m.key, m.value, JSON.stringify(m.headers ?? {}));
    })();
    this.listeners.forEach((notify) => notify());
  }

  async subscribe(
    topic: string,
    groupId: string,
    handler: (message: ConsumedMessage) => Promise<void>,
    options: { fromBeginning?: boolean; onError?: (error: unknown) => void } = {},
  ): Promise<BusSubscription> {
    const committed = this.db
      .prepare<[string, string], { position: number }>('SELECT position FROM group_offsets WHERE topic = ? AND group_id = ?')
      .get(topic, groupId)?.position;
    const start = committed ?? (options.fromBeginning ? 0 : this.head(topic));
    const read = this.db.prepare<[string, number], MessageRow>(
      'SELECT * FROM messages WHERE topic = ? AND position > ? ORDER BY position LIMIT 200',
    );
    const commit = this.db.prepare(
      `INSERT INTO group_offsets (topic, group_id, position) VALUES (?, ?, ?)
       ON CONFLICT (topic, group_id) DO UPDATE SET position = excluded.position`,
    );
    const inner = pollingSubscription<MessageRow>({
      readAfter: async (after) => read.all(topic, after),
      onAppend: (notify) => {
        this.listeners.add(notify);
        return () => this.listeners.delete(notify);
      },
      pollIntervalMs: this.pollIntervalMs,
      after: start,
      onError: options.onError,
      handler: async (row) => {
        await handler({
          topic,
          partition: 0,
          offset: String(row.position),
          key: row.key,
          value: row.value,
          headers: JSON.parse(row.headers),
        });
        commit.run(topic, groupId, row.position);
      },
    });
    const subscription: BusSubscription = {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await inner.stop();
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private head(topic: string): number {
    return (
      this.db.prepare<[string], { p: number | null }>('SELECT MAX(position) AS p FROM messages WHERE topic = ?').get(topic)?.p ?? 0
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.db.open) this.db.close();
  }
}
