import { useEmbeddedStores } from '@app/platform/testing/embedded-stores';
import { DUE_DELIVERIES, type DueDeliveryDocument } from '@app/read-models/webhooks/due-deliveries.projection';
import { DeliveryScheduler } from './scheduler';

const due = (id: string, dueAt: number): DueDeliveryDocument => ({ id, due_at: dueAt, in_flight: null, head: true, queued: true });

describe('DeliveryScheduler', () => {
  const stores = useEmbeddedStores('scheduler');
  const put = (doc: DueDeliveryDocument, position: number) => stores.readStore.apply([{ collection: DUE_DELIVERIES, id: doc.id, position, evolve: () => doc }], {});
  let scheduler: DeliveryScheduler | null = null;
  afterEach(() => scheduler?.stop());

  it('attempts the oldest due deliveries first, and none that is not yet due', async () => {
    const attempted: string[] = [];
    await put(due('dlv_03', Date.now() - 10), 1);
    await put(due('dlv_01', Date.now() - 10), 2);
    await put(due('dlv_02', Date.now() + 60_000), 3);
    // As a real attempt does, each one moves its delivery's next look into the future.
    let position = 10;
    const attempt = async (id: string) => {
      attempted.push(id);
      await put(due(id, Date.now() + 60_000), position++);
      return null;
    };
    scheduler = new DeliveryScheduler(stores.readStore, attempt, { intervalMs: 10, concurrency: 1 });
    scheduler.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(attempted).toEqual(['dlv_01', 'dlv_03']);
  });

  it('looks at once when woken, instead of at the next interval', async () => {
    const attempted: string[] = [];
    scheduler = new DeliveryScheduler(stores.readStore, async (id) => (attempted.push(id), null), { intervalMs: 60_000 });
    scheduler.start();
    await put(due('dlv_01', Date.now() - 1), 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(attempted).toEqual([]);
    scheduler.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(attempted).toEqual(['dlv_01']);
  });

  it('looks again after a look that was running when woken', async () => {
    const attempted: string[] = [];
    scheduler = new DeliveryScheduler(stores.readStore, async (id) => (attempted.push(id), null), { intervalMs: 60_000 });
    scheduler.start();
    scheduler.wake();
    await put(due('dlv_01', Date.now() - 1), 1);
    scheduler.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(attempted).toEqual(['dlv_01']);
  });
});
