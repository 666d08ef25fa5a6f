import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '@app/platform/read-store/sqlite-read-store';
import { styleA, styleAQuery, styleBPagination, styleBQuery, type StyleBQuery } from './pagination';

/** Both list styles of decisions §2, walked page by page over a real read store. */
describe('list pagination', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagination-'));
  const store = new SqliteReadStore(join(dir, 'read.db'));
  // Ids sort in creation order; lists read newest first.
  const ids = Array.from({ length: 7 }, (_, i) => `pi_01ARZ3NDEKTSV4RRFFQ69G5FA${'ABCDEFG'[i]}`);
  const newestFirst = [...ids].reverse();

  beforeAll(async () => {
    await store.apply(
      ids.map((id, i) => ({ collection: 'items', id, position: i + 1, evolve: () => ({ id, org: 'o1', n: i }) })),
      {},
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const pageB = async (query: StyleBQuery) => {
    const page = await store.find<{ id: string }>('items', styleBQuery(query, { org: 'o1' }));
    return { ids: page.items.map((d) => d.id), pagination: styleBPagination(query, page) };
  };

  it('style A walks newest first with next_cursor until has_more is false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const body = styleA(
        await store.find<{ id: string }>('items', styleAQuery({ limit: 3, cursor }, { org: 'o1' })),
        (d) => d.id,
      );
      seen.push(...body.data);
      if (!body.meta.pagination.has_more) {
        expect(body.meta.pagination.next_cursor).toBeNull();
        break;
      }
      cursor = body.meta.pagination.next_cursor!;
    }
    expect(seen).toEqual(newestFirst);
  });

  it('style B goes forward with next_cursor and back with prev_cursor to the same pages', async () => {
    const first = await pageB({ limit: 3 });
    expect(first).toEqual({
      ids: newestFirst.slice(0, 3),
      pagination: { has_next: true, has_previous: false, next_cursor: newestFirst[2], prev_cursor: null },
    });
    const second = await pageB({ limit: 3, next_cursor: first.pagination.next_cursor! });
    expect(second.ids).toEqual(newestFirst.slice(3, 6));
    expect(second.pagination).toMatchObject({ has_next: true, has_previous: true, prev_cursor: newestFirst[3] });
    const last = await pageB({ limit: 3, next_cursor: second.pagination.next_cursor! });
    expect(last).toEqual({
      ids: newestFirst.slice(6),
      pagination: { has_next: false, has_previous: true, next_cursor: null, prev_cursor: newestFirst[6] },
    });
    const back = await pageB({ limit: 3, prev_cursor: last.pagination.prev_cursor! });
    expect(back.ids).toEqual(second.ids);
    expect(back.pagination).toMatchObject({ has_next: true, has_previous: true });
    const front = await pageB({ limit: 3, prev_cursor: back.pagination.prev_cursor! });
    expect(front).toEqual({
      ids: first.ids,
      pagination: { has_next: true, has_previous: false, next_cursor: newestFirst[2], prev_cursor: null },
    });
  });
});
