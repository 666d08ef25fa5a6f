import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider } from '@app/domain';
import { TestClock } from '@app/platform/clock';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { processFolds, withFolds } from '@app/platform/folds/stream-folds';
import { systemActor, type CommandContext } from './actor';
import { handleCommand } from './handle-command';

type Added = { type: 'Added'; data: Record<string, never> };
const counter: Decider<{ type: 'Add' }, Added, number> = {
  initialState: 0,
  evolve: (n) => n + 1,
  decide: () => [
    { type: 'Added', data: {} },
    { type: 'Added', data: {} },
  ],
};
const context: CommandContext = {
  actor: systemActor('org_a', 'test', 'sandbox'),
  correlationId: 'c',
  causationId: 'c',
};

describe("handleCommand stamps events with the process's clock (the store's folds), not the machine's", () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clock-'));
    sqlite = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records occurred_at as the clock reads it when the command appends', async () => {
    const clock = new TestClock();
    clock.set(Date.UTC(2030, 0, 1));
    const store = withFolds(sqlite, processFolds({ clock }));
    await handleCommand(store, 's-1', counter, { type: 'Add' }, context);
    clock.advance(60_000);
    await handleCommand(store, 's-1', counter, { type: 'Add' }, context);
    expect((await sqlite.readStream('s-1')).map((e) => e.metadata.occurred_at)).toEqual(
      [0, 0, 60_000, 60_000].map((ms) => Date.UTC(2030, 0, 1) + ms),
    );
  });
});
