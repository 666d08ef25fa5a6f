import { ulid } from 'ulid';
import type { ProjectionWrite, ReadDocument, ReadStore } from './read-store.port';

/**
 * The behaviour every ReadStore adapter owes projections and list endpoints. Each test uses its
 * own collections and checkpoint names, so it also runs against a shared server.
 */
export function describeReadStoreContract(name: string, open: () => Promise<ReadStore>, timeoutMs = 20_000): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let col: string;
    beforeEach(async () => {
      store = await open();
      col = `contract_${ulid().toLowerCase()}`;
    }, timeoutMs);
    afterEach(() => store.close(), timeoutMs);
    jest.setTimeout(timeoutMs);

    const seed = (docs: ReadDocument[], position = 1) =>
      store.apply(
        docs.map((d) => put(col, d, position)),
        {},
      );

    it('get returns a written document, and null for one never written', async () => {
      await seed([{ id: 'acc_1', status: 'open', balance: 10, tags: ['x'], owner: { name: 'Ada' } }]);
      expect(await store.get(col, 'acc_1')).toEqual({
        id: 'acc_1',
        status: 'open',
        balance: 10,
        tags: ['x'],
        owner: { name: 'Ada' },
      });
      expect(await store.get(col, 'acc_2')).toBeNull();
      expect(await store.get(`${col}_other`, 'acc_1')).toBeNull();
    });

    it('find filters on equality of strings, numbers, booleans and null; undefined is ignored', async () => {
      await seed([
        { id: 'a', status: 'open', currency: 'GBP', live: true, closed_at: null, tier: 1 },
        { id: 'b', status: 'open', currency: 'EUR', live: false, closed_at: null, tier: 2 },
        { id: 'c', status: 'closed', currency: 'GBP', live: true, closed_at: 5, tier: 1 },
      ]);
      const ids = async (filter: Record<string, string | number | boolean | null | undefined>) =>
        (await store.find(col, { filter, limit: 10 })).items.map((d) => d.id);
      expect(await ids({})).toEqual(['c', 'b', 'a']);
      expect(await ids({ status: 'open' })).toEqual(['b', 'a']);
      expect(await ids({ status: 'open', currency: 'GBP' })).toEqual(['a']);
      expect(await ids({ live: false })).toEqual(['b']);
      expect(await ids({ tier: 1 })).toEqual(['c', 'a']);
      expect(await ids({ closed_at: null })).toEqual(['b', 'a']);
      expect(await ids({ status: undefined, currency: 'GBP' })).toEqual(['c', 'a']);
      expect(await ids({ status: 'frozen' })).toEqual([]);
    });

    it('range bounds are inclusive and combine with the filter', async () => {
      await seed([10, 20, 30, 40].map((created, i) => ({ id: `d${i}`, created, kind: i % 2 ? 'odd' : 'even' })));
      const ids = async (range: { field: string; gte?: number; lte?: number }, filter = {}) =>
        (await store.find(col, { range, filter, limit: 10 })).items.map((d) => d.id);
      expect(await ids({ field: 'created', gte: 20, lte: 30 })).toEqual(['d2', 'd1']);
      expect(await ids({ field: 'created', gte: 30 })).toEqual(['d3', 'd2']);
      expect(await ids({ field: 'created', lte: 10 })).toEqual(['d0']);
      expect(await ids({ field: 'created', gte: 15 }, { kind: 'even' })).toEqual(['d2']);
    });

    it('pages newest first with before/after cursors and says whether more lie beyond', async () => {
      await seed(['d1', 'd2', 'd3', 'd4', 'd5'].map((id) => ({ id })));
      const page = async (q: { before?: string; after?: string; limit: number }) => {
        const p = await store.find(col, q);
        return [p.items.map((d) => d.id), p.hasMore];
      };
      expect(await page({ limit: 2 })).toEqual([['d5', 'd4'], true]);
      expect(await page({ limit: 2, before: 'd4' })).toEqual([['d3', 'd2'], true]);
      expect(await page({ limit: 2, before: 'd2' })).toEqual([['d1'], false]);
      expect(await page({ limit: 2, after: 'd2' })).toEqual([['d4', 'd3'], true]);
      expect(await page({ limit: 2, after: 'd3' })).toEqual([['d5', 'd4'], false]);
      expect(await page({ limit: 5 })).toEqual([['d5', 'd4', 'd3', 'd2', 'd1'], false]);
      expect(await page({ limit: 10, after: 'd1', before: 'd5' })).toEqual([['d4', 'd3', 'd2'], false]);
    });

    describe('guarded apply', () => {
      it('applies a write once: a replay at the same position and an older position change nothing', async () => {
        await store.apply([increment(col, 'n', 10)], {});
        await store.apply([increment(col, 'n', 10)], {});
        await store.apply([increment(col, 'n', 7)], {});
        expect(await store.get(col, 'n')).toEqual({ id: 'n', count: 1 });
        await store.apply([increment(col, 'n', 11), increment(col, 'n', 11), increment(col, 'n', 12)], {});
        expect(await store.get(col, 'n')).toEqual({ id: 'n', count: 3 });
      });

      it('applies writes of one batch in order, each seeing the one before', async () => {
        await store.apply(
          [put(col, { id: 'x', steps: ['a'] }, 1), append(col, 'x', 'b', 2), append(col, 'x', 'c', 3)],
          {},
        );
        expect(await store.get(col, 'x')).toEqual({ id: 'x', steps: ['a', 'b', 'c'] });
      });

      it('keeps a tombstone: a deleted document stays deleted when older writes replay', async () => {
        await store.apply([put(col, { id: 'gone', v: 1 }, 1), put(col, { id: 'kept', v: 1 }, 1)], {});
        await store.apply([remove(col, 'gone', 2)], {});
        expect(await store.get(col, 'gone')).toBeNull();
        await store.apply([put(col, { id: 'gone', v: 1 }, 1)], {});
        expect(await store.get(col, 'gone')).toBeNull();
        expect((await store.find(col, { limit: 10 })).items.map((d) => d.id)).toEqual(['kept']);
        await store.apply([put(col, { id: 'gone', v: 2 }, 3)], {});
        expect(await store.get(col, 'gone')).toEqual({ id: 'gone', v: 2 });
      });

      it('purges tombstones at or below a position only: deletions above it still guard, live documents stay', async () => {
        await store.apply([put(col, { id: 'a' }, 1), put(col, { id: 'b' }, 1), put(col, { id: 'live' }, 1)], {});
        await store.apply([remove(col, 'a', 2), remove(col, 'b', 4)], {});
        expect(await store.purgeTombstones(col, 3)).toBe(1);
        expect(await store.purgeTombstones(col, 3)).toBe(0);
        // 'b' keeps its guard: an older write replayed is still refused.
        await store.apply([put(col, { id: 'b', v: 'old' }, 3)], {});
        expect(await store.get(col, 'b')).toBeNull();
        expect(await store.get(col, 'live')).toEqual({ id: 'live' });
        expect(await store.purgeTombstones(col, 10)).toBe(1);
      });
    });

    it('creates declared indexes (idempotently) and lists still answer the same through them', async () => {
      const declared = [
        {
          collection: col,
          indexes: [
            ['org', 'status'],
            ['org', 'created'],
          ],
        },
      ];
      await store.ensureIndexes(declared);
      await store.ensureIndexes(declared);
      await seed([1, 2, 3].map((n) => ({ id: `d${n}`, org: 'o', status: n % 2 ? 'odd' : 'even', created: n })));
      const page = await store.find(col, {
        filter: { org: 'o', status: 'odd' },
        range: { field: 'created', gte: 2 },
        limit: 5,
      });
      expect(page.items.map((d) => d.id)).toEqual(['d3']);
      await store.ensureIndexes([{ collection: col, indexes: [['org']] }]);
      expect((await store.find(col, { filter: { org: 'o' }, before: 'd3', limit: 5 })).items.map((d) => d.id)).toEqual([
        'd2',
        'd1',
      ]);
    });

    it('filters the same through declared indexes, for documents written before and after the declaration', async () => {
      const docs = [
        { id: 'a', status: 'open', live: true, closed_at: null, tier: 1, owner: { country: 'GB' }, tags: ['x'] },
        { id: 'b', status: 'open', live: false, closed_at: null, tier: 2, owner: { country: 'NG' }, tags: ['y'] },
        { id: 'c', status: 'closed', live: true, closed_at: 5, tier: 1, owner: { country: 'GB' } },
      ];
      await seed(docs.slice(0, 2));
      await store.ensureIndexes([
        { collection: col, indexes: [['status', 'live'], ['closed_at'], ['tier'], ['owner.country'], ['tags']] },
      ]);
      await seed(docs.slice(2), 100);
      const ids = async (filter: Record<string, string | number | boolean | null>) =>
        (await store.find(col, { filter, limit: 10 })).items.map((d) => d.id);
      expect(await ids({ status: 'open', live: true })).toEqual(['a']);
      expect(await ids({ status: 'closed', live: true })).toEqual(['c']);
      expect(await ids({ closed_at: null })).toEqual(['b', 'a']);
      expect(await ids({ closed_at: 5 })).toEqual(['c']);
      expect(await ids({ tier: 1 })).toEqual(['c', 'a']);
      expect(await ids({ 'owner.country': 'GB' })).toEqual(['c', 'a']);
      expect(
        (await store.find(col, { filter: { status: 'open' }, range: { field: 'tier', gte: 2 }, limit: 10 })).items.map(
          (d) => d.id,
        ),
      ).toEqual(['b']);
    });

    it('records checkpoints, 0 before the first, and moves them with apply', async () => {
      const cp = `cp_${col}`;
      expect(await store.getCheckpoint(cp)).toBe(0);
      await store.apply([put(col, { id: 'a' }, 5)], { [cp]: 5 });
      expect(await store.getCheckpoint(cp)).toBe(5);
      await store.apply([], { [cp]: 9, [`${cp}_b`]: 4 });
      expect(await store.getCheckpoint(cp)).toBe(9);
      expect(await store.getCheckpoint(`${cp}_b`)).toBe(4);
    });

    it('never moves a checkpoint back: a lower one applied after a higher one leaves the higher', async () => {
      const cp = `cp_${col}`;
      await store.apply([], { [cp]: 30 });
      await store.apply([put(col, { id: 'a' }, 12)], { [cp]: 12 });
      expect(await store.getCheckpoint(cp)).toBe(30);
      await store.apply([], { [cp]: 31 });
      expect(await store.getCheckpoint(cp)).toBe(31);
    });

    it('reset clears the named collections and checkpoints only, so a rebuild applies from scratch', async () => {
      const other = `${col}_other`;
      await store.apply([increment(col, 'n', 5), increment(other, 'n', 5)], { [`${col}_p`]: 5, [`${col}_q`]: 5 });
      await store.reset([col], [`${col}_p`]);
      expect(await store.get(col, 'n')).toBeNull();
      expect((await store.find(col, { limit: 10 })).items).toEqual([]);
      expect(await store.getCheckpoint(`${col}_p`)).toBe(0);
      expect(await store.get(other, 'n')).toEqual({ id: 'n', count: 1 });
      expect(await store.getCheckpoint(`${col}_q`)).toBe(5);
      await store.apply([increment(col, 'n', 5)], {});
      expect(await store.get(col, 'n')).toEqual({ id: 'n', count: 1 });
    });
  });
}

function put(collection: string, doc: ReadDocument, position: number): ProjectionWrite {
  return { collection, id: doc.id, position, evolve: () => doc };
}

function remove(collection: string, id: string, position: number): ProjectionWrite {
  return { collection, id, position, evolve: () => null };
}

function increment(collection: string, id: string, position: number): ProjectionWrite {
  return { collection, id, position, evolve: (c) => ({ id, count: ((c?.count as number | undefined) ?? 0) + 1 }) };
}

function append(collection: string, id: string, step: string, position: number): ProjectionWrite {
  return {
    collection,
    id,
    position,
    evolve: (c) => ({ id, steps: [...((c?.steps as string[] | undefined) ?? []), step] }),
  };
}
