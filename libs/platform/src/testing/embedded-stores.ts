import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { SqliteReadStore } from '../read-store/sqlite-read-store';

export interface EmbeddedStores {
  readonly dir: string;
  readonly store: SqliteEventStore;
  readonly readStore: SqliteReadStore;
}

/**
 * A fresh SQLite event store and read store in a temporary DATA_DIR for each test of the
 * enclosing `describe`, closed and removed after it. Read the fields inside a test or hook.
 */
export function useEmbeddedStores(prefix: string): EmbeddedStores {
  const current: { dir?: string; store?: SqliteEventStore; readStore?: SqliteReadStore } = {};
  beforeEach(() => {
    current.dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    current.store = new SqliteEventStore(join(current.dir, 'events.db'));
    current.readStore = new SqliteReadStore(join(current.dir, 'read-models.db'));
  });
  afterEach(async () => {
    await current.store?.close();
    await current.readStore?.close();
    if (current.dir) rmSync(current.dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return current.dir!;
    },
    get store() {
      return current.store!;
    },
    get readStore() {
      return current.readStore!;
    },
  };
}
