import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider } from '@app/domain';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { systemActor, type CommandContext } from './actor';
import { handleCommand, loadAggregate } from './handle-command';

type Added = { type: 'Added'; data: Record<string, never> };
const counter: Decider<{ type: 'Add' }, Added, number> = {
  initialState: 0,
  evolve: (n) => n + 1,
  decide: () => [{ type: 'Added', data: {} }],
};
const add = { type: 'Add' as const };
const as = (mode: 'sandbox' | 'live'): CommandContext => ({
  actor: systemActor('org_a', 'test', mode),
  correlationId: 'c',
  causationId: 'c',
});

describe('handleCommand and modes, on the embedded store', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'modes-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const modes = async (stream: string) => (await store.readStream(stream)).map((e) => e.metadata.mode);

  it("records the actor's mode on a new stream, or the one asked for, and keeps a stream's mode after", async () => {
    await handleCommand(store, 's-1', counter, add, as('live'));
    await handleCommand(store, 's-2', counter, add, as('live'), { mode: 'sandbox' });
    await handleCommand(store, 's-2', counter, add, as('sandbox'), { mode: 'live' });
    expect(await modes('s-1')).toEqual(['live']);
    expect(await modes('s-2')).toEqual(['sandbox', 'sandbox']);
  });

  it('folds the other mode to nothing: the stream does not exist for it', async () => {
    await handleCommand(store, 's-1', counter, add, as('sandbox'));
    expect(await loadAggregate(store, 's-1', counter, as('live'))).toBeNull();
    expect(await loadAggregate(store, 's-1', counter, as('sandbox'))).toEqual({ state: 1, revision: 0 });
  });

  it('reads a stream written before modes as sandbox, and appends to it as sandbox', async () => {
    const legacy = {
      event_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      organization_id: 'org_a',
      entity_id: null,
      correlation_id: 'c',
      causation_id: 'c',
      schema_version: 1,
      occurred_at: 1,
    };
    await store.append('old-1', [{ type: 'Added', data: {}, metadata: legacy }], 'no_stream');
    expect(await loadAggregate(store, 'old-1', counter, as('live'))).toBeNull();
    await handleCommand(store, 'old-1', counter, add, as('sandbox'));
    expect(await modes('old-1')).toEqual([undefined, 'sandbox']);
  });
});
