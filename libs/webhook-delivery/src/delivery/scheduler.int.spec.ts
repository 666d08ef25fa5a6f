import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dueDelivery } from '@app/platform/delivery-store/delivery-store.contract';
import { SqliteDeliveryStore } from '@app/platform/delivery-store/sqlite-delivery-store';
import { systemClock } from '@app/platform/clock';
import { waitFor } from '../../../../test/support/wait-for';
import { DeliveryScheduler } from './scheduler';

const delivery = dueDelivery;

describe('DeliveryScheduler', () => {
  let dir: string;
  let store: SqliteDeliveryStore;
  let scheduler: DeliveryScheduler | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scheduler-'));
    store = new SqliteDeliveryStore(join(dir, 'deliveries.db'));
  });
  afterEach(async () => {
    await scheduler?.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** whd_01 then whd_02 due, one attempt at a time, and no look of its own for a minute: only a wake or an attempt's end moves it. */
  async function twoDueOneAtATime(attempt: ConstructorParameters<typeof DeliveryScheduler>[1]) {
    const now = Date.now();
    await store.schedule(delivery('whd_01', now - 20));
    await store.schedule(delivery('whd_02', now - 10));
    scheduler = new DeliveryScheduler(store, attempt, { intervalMs: 60_000, concurrency: 1, clock: systemClock });
    scheduler.start();
    scheduler.wake();
  }

  it('attempts the longest due deliveries first, and none that is not yet due', async () => {
    const attempted: string[] = [];
    // One clock reading: a schedule is an fsync, and one slower than 10 ms would reverse the due times.
    const now = Date.now();
    await store.schedule(delivery('whd_03', now - 10));
    await store.schedule(delivery('whd_01', now - 20));
    await store.schedule(delivery('whd_02', now + 60_000));
    // As a real attempt does, each one claims its delivery, which moves its next look into the future.
    const attempt = async (id: string) => {
      attempted.push(id);
      await store.claim(id, Date.now(), 60_000);
      return null;
    };
    scheduler = new DeliveryScheduler(store, attempt, { intervalMs: 10, concurrency: 1, clock: systemClock });
    scheduler.start();
    // Two looks at least (every 10 ms); whd_02 is a minute away. Waited for, not slept on (issue 32).
    await waitFor(
      () => attempted.length,
      (n) => n >= 2,
      'the two due deliveries',
    );
    expect(attempted).toEqual(['whd_01', 'whd_03']);
  });

  it('looks at once when woken, instead of at the next interval', async () => {
    const attempted: string[] = [];
    scheduler = new DeliveryScheduler(store, async (id) => (attempted.push(id), null), {
      intervalMs: 60_000,
      clock: systemClock,
    });
    scheduler.start();
    await store.schedule(delivery('whd_01', Date.now() - 1));
    // The first look is a minute away (start only schedules it): nothing until woken.
    for (let turn = 0; turn < 10; turn++) await new Promise((r) => setImmediate(r));
    expect(attempted).toEqual([]);
    scheduler.wake();
    await waitFor(
      () => attempted.length,
      (n) => n >= 1,
      'a look once woken',
    );
    expect(attempted).toEqual(['whd_01']);
  });

  it('looks again after a look that was running when woken', async () => {
    const attempted: string[] = [];
    scheduler = new DeliveryScheduler(store, async (id) => (attempted.push(id), null), {
      intervalMs: 60_000,
      clock: systemClock,
    });
    scheduler.start();
    scheduler.wake();
    await store.schedule(delivery('whd_01', Date.now() - 1));
    scheduler.wake();
    await waitFor(
      () => attempted.length,
      (n) => n >= 1,
      'the look after the running one',
    );
    expect(attempted).toEqual(['whd_01']);
  });

  it('when the last look had no room for every due delivery, the end of an attempt looks again', async () => {
    const attempted: string[] = [];
    const gates: Array<() => void> = [];
    // Each attempt holds its place until released, then claims as a real one does.
    const attempt = async (id: string) => {
      attempted.push(id);
      await new Promise<void>((release) => gates.push(release));
      await store.claim(id, Date.now(), 60_000);
      return null;
    };
    await twoDueOneAtATime(attempt);
    await waitFor(
      () => attempted.length,
      (n) => n >= 1,
      'the first attempt',
    );
    gates[0]();
    // No wake and no look for a minute: only the first attempt's end can start the second.
    await waitFor(
      () => attempted.length,
      (n) => n >= 2,
      'the second attempt, once the first ended',
    );
    expect(attempted).toEqual(['whd_01', 'whd_02']);
    gates[1]();
  });

  it('an answered attempt writing its outcome leaves its place to the next due delivery', async () => {
    const attempted: string[] = [];
    let finish!: () => void;
    const written = new Promise<void>((resolve) => (finish = resolve));
    // The first is answered at once but its outcome is not written until released (a slow disk).
    const attempt = async (id: string, answered: () => void) => {
      attempted.push(id);
      await store.claim(id, Date.now(), 60_000);
      answered();
      if (id === 'whd_01') await written;
      return null;
    };
    await twoDueOneAtATime(attempt);
    await waitFor(
      () => attempted.length,
      (n) => n >= 2,
      'the second attempt while the first still writes',
    );
    expect(attempted).toEqual(['whd_01', 'whd_02']);
    finish();
  });
});
