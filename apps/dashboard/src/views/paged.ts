import { get, type Query, type StyleA } from '../api';
import { h, type Child } from '../dom';

/**
 * A style A list (decisions §2) as a table, newest first, with a button for the next page: the
 * rows come from `row`, the cursor from the API.
 */
export async function pagedTable<T>(path: string, query: Query, headers: string[], row: (item: T) => Child[], options: { id?: string; empty?: string; limit?: number } = {}): Promise<HTMLElement> {
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'more' }, 'More');
  const wrap = h('div', { class: 'paged', id: options.id });
  let cursor: string | null = null;
  const load = async () => {
    const page: StyleA<T> = await get<StyleA<T>>(path, { ...query, limit: options.limit ?? 25, cursor });
    for (const item of page.data)
      body.appendChild(
        h(
          'tr',
          null,
          row(item).map((cell) => h('td', null, cell)),
        ),
      );
    cursor = page.meta.pagination.next_cursor;
    more.hidden = !page.meta.pagination.has_more;
    return page.data.length;
  };
  more.addEventListener('click', () => void load());
  if (!(await load())) return h('p', { class: 'empty', id: options.id }, options.empty ?? 'Nothing yet.');
  wrap.append(
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
    more,
  );
  return wrap;
}
