import { get, type Query, type StyleA } from '../api';
import { h, scroller, type Child } from '../dom';

/** The next rows of a list, newest first, and whether more follow. */
export type PageSource<T> = (size: number) => Promise<{ items: T[]; more: boolean }>;

/** A style A list (decisions §2), page after page with its cursor. */
export function styleAPages<T>(path: string, query: Query): PageSource<T> {
  let cursor: string | null = null;
  return async (size) => {
    const page: StyleA<T> = await get<StyleA<T>>(path, { ...query, limit: size, cursor });
    cursor = page.meta.pagination.next_cursor;
    return { items: page.data, more: page.meta.pagination.has_more && cursor !== null };
  };
}

/** A page source keeping only what `keep` accepts (a filter the API does not offer), reading on until a page is full or the list ends. */
export function filtered<T>(next: PageSource<T>, keep: (item: T) => boolean): PageSource<T> {
  return async (size) => {
    const items: T[] = [];
    let more = true;
    while (items.length < size && more) {
      const page = await next(size);
      items.push(...page.items.filter(keep));
      more = page.more;
    }
    return { items, more };
  };
}

/**
 * A style A list (decisions §2) as a table, newest first, with a button for the next page: the
 * rows come from `row`, the cursor from the API.
 */
export function pagedTable<T>(
  path: string,
  query: Query,
  headers: string[],
  row: (item: T) => Child[] | Promise<Child[]>,
  options: PagedOptions = {},
): Promise<HTMLElement> {
  return pagedRows(styleAPages<T>(path, query), headers, row, options);
}

export interface PagedOptions {
  id?: string;
  empty?: string;
  limit?: number;
}

/** Any page source as a table with a "More" button under it; the rows of a page may need a look-up (a counterparty's name). */
export async function pagedRows<T>(
  next: PageSource<T>,
  headers: string[],
  row: (item: T) => Child[] | Promise<Child[]>,
  options: PagedOptions = {},
): Promise<HTMLElement> {
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'more' }, 'More');
  const wrap = h('div', { class: 'paged', id: options.id });
  const load = async () => {
    more.disabled = true;
    const page = await next(options.limit ?? 25);
    for (const cells of await Promise.all(page.items.map(row)))
      body.appendChild(
        h(
          'tr',
          null,
          cells.map((cell) => h('td', null, cell)),
        ),
      );
    more.hidden = !page.more;
    more.disabled = false;
    return page.items.length;
  };
  more.addEventListener('click', () => void load());
  if (!(await load())) return h('p', { class: 'empty', id: options.id }, options.empty ?? 'Nothing yet.');
  wrap.append(
    scroller(
      h(
        'table',
        null,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            headers.map((name) => h('th', null, name)),
          ),
        ),
        body,
      ),
    ),
    more,
  );
  return wrap;
}
