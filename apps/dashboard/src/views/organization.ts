import { get, path, type Query, type StyleA } from '../api';
import { h, link } from '../dom';
import type { Counterparty, Entity } from '../types';
import { entityName } from './overview';
import type { PageSource } from './paged';

/**
 * The API lists transfers, webhooks and counterparties per entity (decisions §2: `entity_id` is
 * required with an API key, and stays so). The organization-wide lists read the newest
 * ENTITY_BOUND entities and merge their lists here; past that bound the page says so, and the
 * entity filter reads any one entity's list straight from the API.
 */
export const ENTITY_BOUND = 100;

export async function organizationEntities(): Promise<{ entities: Entity[]; more: boolean }> {
  const page = await get<StyleA<Entity>>('/entities', { limit: ENTITY_BOUND });
  return { entities: page.data, more: page.meta.pagination.has_more };
}

interface Source<T> {
  readonly entityId: string;
  buffer: T[];
  cursor: string | null;
  done: boolean;
}

const newerFirst = (a: { created: number; id: string }, b: { created: number; id: string }) =>
  b.created - a.created || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0);

/**
 * One list, newest first, merged from each entity's style A list: before a page is taken every
 * entity's buffer holds a page's worth or its list has ended, so the page's rows are the newest of
 * all. Each entity's list is read page by page with its own cursor, never twice.
 */
export function mergedPages<T extends { created: number; id: string }>(
  listPath: string,
  query: Query,
  entityIds: readonly string[],
): PageSource<T> {
  const sources: Source<T>[] = entityIds.map((entityId) => ({ entityId, buffer: [], cursor: null, done: false }));
  const fill = async (s: Source<T>, size: number) => {
    while (!s.done && s.buffer.length < size) {
      const page = await get<StyleA<T>>(listPath, { ...query, entity_id: s.entityId, limit: size, cursor: s.cursor });
      s.buffer.push(...page.data);
      s.cursor = page.meta.pagination.next_cursor;
      s.done = !page.meta.pagination.has_more || !s.cursor;
    }
  };
  return async (size) => {
    await Promise.all(sources.map((s) => fill(s, size)));
    const items: T[] = [];
    while (items.length < size) {
      const from = sources.filter((s) => s.buffer.length).sort((a, b) => newerFirst(a.buffer[0], b.buffer[0]))[0];
      if (!from) break;
      items.push(from.buffer.shift()!);
    }
    return { items, more: sources.some((s) => s.buffer.length || !s.done) };
  };
}

/** The hint under an organization-wide list when the organization has more entities than it reads. */
export const boundHint = (more: boolean, what: string) =>
  more
    ? h(
        'p',
        { class: 'hint', id: 'entity-bound' },
        `The ${what} of the newest ${ENTITY_BOUND} entities; pick an entity to see any other's.`,
      )
    : null;

/** A filter bar whose values go into the hash route's query, so a filtered page can be linked and reloaded. */
export function filterBar(
  route: string,
  params: URLSearchParams,
  fields: (HTMLInputElement | HTMLSelectElement)[],
): HTMLElement {
  for (const f of fields) f.value = params.get(f.name) ?? '';
  const go = () => {
    const q = new URLSearchParams(fields.filter((f) => f.value.trim()).map((f) => [f.name, f.value.trim()]));
    window.location.hash = `#/${route}${q.size ? `?${q}` : ''}`;
  };
  for (const f of fields) if (f instanceof HTMLSelectElement) f.addEventListener('change', go);
  return h(
    'form',
    {
      class: 'filters',
      onsubmit: (event: Event) => {
        event.preventDefault();
        go();
      },
    },
    fields,
    h('button', { type: 'submit' }, 'Filter'),
  );
}

export const select = (name: string, label: string, options: [string, string][]) =>
  h(
    'select',
    { name, 'aria-label': label, id: `filter-${name}` },
    h('option', { value: '' }, label),
    options.map(([value, text]) => h('option', { value }, text)),
  );

export const entityOptions = (entities: readonly Entity[]): [string, string][] =>
  entities.map((e) => [e.id, entityName(e)]);

/** A counterparty's name: its nickname, else the person's or business's name. */
export function counterpartyName(c: Counterparty): string {
  const p = c.profile as Record<string, string | null | undefined>;
  return c.nickname || p.trading_name || p.legal_name || [p.first_name, p.last_name].filter(Boolean).join(' ') || c.id;
}

const names = new Map<string, Promise<string>>();

/** A counterparty by name, linked to its page; looked up once while the tab is open (GET /counterparties/{id} needs no entity; a rename shows after a reload). */
export async function counterpartyLink(id: string | null | undefined): Promise<Node | string> {
  if (!id) return '—';
  if (!names.has(id))
    names.set(
      id,
      get<Counterparty>(path('counterparties', id)).then(counterpartyName, () => id),
    );
  return link(`counterparties/${id}`, await names.get(id)!);
}
