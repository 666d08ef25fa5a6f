import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import type { EventToAppend } from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';

/** What each stream's append was answered: `committed`, or the error's message. */
export interface FloodResult {
  readonly outcomes: Record<string, string>;
  readonly sizes: Record<string, number>;
  /** The answer to one more append after space came back, on the same store (no reopening). */
  readonly afterSpace: string;
}

/**
 * Rounds of concurrent appends of ~30 KB events to a SqliteEventStore whose disk fills up, then
 * `makeSpace()` and one more append. Group commit packs each round into batches of several MB,
 * more than SQLite's page cache (2 MB), so pages spill to the WAL mid-transaction and the failure
 * strikes there too, where SQLite rolls the whole transaction back itself.
 */
export async function appendFlood(file: string, makeSpace: () => void): Promise<FloodResult> {
  const store = new SqliteEventStore(file, 100);
  const pad = 'x'.repeat(30_000);
  const events = (stream: string, n: number): EventToAppend[] =>
    Array.from(
      { length: n },
      (_, i) =>
        ({
          type: 'Padded',
          data: { pad, i },
          metadata: { event_id: `${stream}-${i}`, organization_id: 'org_disk', mode: 'sandbox' },
        }) as unknown as EventToAppend,
    );
  const outcomes: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (let round = 0; round < 4; round++) {
    await Promise.all(
      Array.from({ length: 300 }, (_, k) => {
        const stream = `padded-${round}-${k}`;
        sizes[stream] = 1 + (k % 3);
        return store.append(stream, events(stream, sizes[stream]), 'no_stream').then(
          () => void (outcomes[stream] = 'committed'),
          (err: Error) => void (outcomes[stream] = err.message),
        );
      }),
    );
  }
  makeSpace();
  const afterSpace = await store.append('after-space', events('after-space', 1), 'no_stream').then(
    () => 'committed',
    (err: Error) => err.message,
  );
  await store.close();
  return { outcomes, sizes, afterSpace };
}

/** Reopens the file and names every stream whose stored events disagree with its answer. */
export function disagreements(file: string, { outcomes, sizes }: FloodResult): string[] {
  const db = new Database(file, { readonly: true });
  const stored = new Map(
    (
      db.prepare('SELECT stream_id, COUNT(*) AS n FROM events GROUP BY stream_id').all() as Array<{
        stream_id: string;
        n: number;
      }>
    ).map((r) => [r.stream_id, r.n]),
  );
  db.close();
  return Object.entries(outcomes).flatMap(([stream, o]) => {
    const n = stored.get(stream) ?? 0;
    if (o === 'committed' && n !== sizes[stream])
      return [`${stream}: acknowledged, ${n} of ${sizes[stream]} events stored`];
    if (o !== 'committed' && n !== 0) return [`${stream}: refused (${o}), yet ${n} events stored`];
    return [];
  });
}

/**
 * Child mode (`node -r test/audit/ts-register.js test/faults/append-flood.ts FILE`), started under
 * a file-size limit (`prlimit --fsize=N:unlimited`): writes past it fail with EFBIG, which SQLite
 * reports as SQLITE_IOERR (an I/O error, as a failing disk or fsync would be); space "returns" by
 * lifting the soft limit of this very process. Prints the FloodResult as JSON.
 */
if (require.main === module) {
  const file = process.argv[2];
  appendFlood(file, () => execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited'])).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
