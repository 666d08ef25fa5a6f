import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEventStore } from '@app/platform/adapters';
import { loadConfig } from '@app/platform/config/platform-config';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/** The stored events of a checked-in log fixture (test/fixtures/*.jsonl), one per line. */
export const fixtureEvents = (fixture: string): RecordedEvent[] =>
  readFileSync(join(__dirname, '..', 'fixtures', fixture), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RecordedEvent);

/** A DATA_DIR holding exactly the fixture's stored events (positions, revisions and hashes as written), as an older version left it. */
export async function fixtureDataDir(fixture: string, prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await createEventStore(loadConfig({ ...process.env, DATA_DIR: dir, EVENTSTORE_URL: '' })).close();
  const db = new Database(join(dir, 'events.db'));
  const insert = db.prepare(
    'INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() =>
    fixtureEvents(fixture).forEach((e) =>
      insert.run(e.position, e.streamId, e.revision, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)),
    ),
  )();
  db.close();
  return dir;
}
