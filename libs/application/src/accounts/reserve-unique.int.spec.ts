import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { systemActor, type CommandContext } from '../command-handling';
import { MAX_RESERVATION_DRAWS, reserveUnique } from './reserve-unique';
import { serviceBanStream } from './streams';

describe('reserveUnique on the embedded event store', () => {
  let dir: string;
  let store: SqliteEventStore;
  const context: CommandContext = {
    actor: systemActor('org_test', 'test', 'sandbox'),
    correlationId: 'c',
    causationId: 'c',
  };
  const reservation = (ban: string) => ({
    stream: serviceBanStream(ban),
    event: { type: 'ServiceBanReserved' as const, data: { service_ban: ban, account_id: 'acc_x' } },
  });
  const scripted = (values: string[]) => () => {
    const next = values.shift();
    if (!next) throw new Error('script exhausted');
    return next;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reserve-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws again when the value is already held, and claims the next free one', async () => {
    expect(await reserveUnique(store, context, 'ent_1', scripted(['1000000009']), reservation)).toBe('1000000009');
    const draws = ['1000000009', '1000000009', '2000000007'];
    expect(await reserveUnique(store, context, 'ent_1', scripted(draws), reservation)).toBe('2000000007');
    expect(draws).toEqual([]);
    expect(await store.readStream(serviceBanStream('1000000009'))).toHaveLength(1);
  });

  it('lets exactly one of many concurrent claims of one value win', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        reserveUnique(
          store,
          context,
          'ent_1',
          scripted(['3000000005', `40000000${String(i).padStart(2, '0')}`]),
          reservation,
        ),
      ),
    );
    const won = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'));
    expect(won.filter((v) => v === '3000000005')).toHaveLength(1);
    expect(new Set(won).size).toBe(10);
  });

  it('gives up after a bounded number of draws rather than looping forever', async () => {
    await reserveUnique(store, context, 'ent_1', scripted(['5000000001']), reservation);
    const always = () => '5000000001';
    await expect(reserveUnique(store, context, 'ent_1', always, reservation)).rejects.toThrow(
      `no free value after ${MAX_RESERVATION_DRAWS} draws`,
    );
  });
});
