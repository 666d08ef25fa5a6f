import { get, path, type StyleA } from '../api';
import { h, link, section, stamp, table } from '../dom';
import type { PublicEvent } from '../types';
import { collectionOf, timeline } from './timeline';

/** Events on a page of the events view. */
const PAGE = 50;
/** The API's largest page: a window of the log this size or smaller is read whole in one answer. */
const WINDOW = 100;

type Filters = Record<string, string | null>;

/** The filtered events after `lo` (and before `before`): all of them if `whole`, else the first WINDOW (more follow). */
async function windowAfter(
  filters: Filters,
  lo: number,
  before: number,
): Promise<{ events: PublicEvent[]; whole: boolean }> {
  const page = await get<StyleA<PublicEvent>>('/events', { ...filters, after_position: lo, limit: WINDOW });
  const events = page.data.filter((e) => e.position < before);
  return { events, whole: !page.meta.pagination.has_more || events.length < page.data.length };
}

/**
 * The PAGE newest events before position `before`, newest first. The API reads the log oldest
 * first after a position, so this looks for a start `lo` whose window up to `before` holds between
 * PAGE and WINDOW events: one answer when the (filtered) history is short, else a doubling search
 * for a start near the end and a bisection, about 2·log2(position) answers. The count after a
 * position falls by at most one per position, so a start with PAGE to WINDOW events always exists.
 */
async function newestBefore(filters: Filters, before: number): Promise<{ events: PublicEvent[]; older: boolean }> {
  const done = (w: { events: PublicEvent[] }, lo: number) => ({
    events: w.events.slice(-PAGE).reverse(),
    older: lo > 0 || w.events.length > PAGE,
  });
  let low = 0;
  let first = await windowAfter(filters, 0, before);
  if (first.whole) return done(first, 0);
  // Invariant: more than WINDOW events after `low`, fewer than PAGE after `high`.
  let high = Number.isFinite(before) ? before - 1 : Math.max(2 * first.events[first.events.length - 1].position, 1);
  for (;;) {
    const w = await windowAfter(filters, high, before);
    if (!w.whole) [low, high] = [high, high * 2];
    else if (w.events.length >= PAGE) return done(w, high);
    else break;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    first = await windowAfter(filters, mid, before);
    if (!first.whole) low = mid;
    else if (first.events.length >= PAGE) return done(first, mid);
    else high = mid;
  }
  return done(await windowAfter(filters, high, before), high);
}

/**
 * The organization's events, newest first, PAGE at a time (GET /events, filtered as the API
 * allows): "Older" pages back from the oldest event shown (`before`, a position of the log).
 */
export async function eventsView(params: URLSearchParams): Promise<Node> {
  const filters: Filters = {
    type: params.get('type'),
    resource_type: params.get('resource_type'),
    resource_id: params.get('resource_id'),
    entity_id: params.get('entity_id'),
  };
  const before = Number(params.get('before') ?? Infinity);
  const page = await newestBefore(filters, Number.isFinite(before) && before > 0 ? before : Infinity);
  const query = (extra: Filters) =>
    new URLSearchParams(Object.entries({ ...filters, ...extra }).filter((e): e is [string, string] => Boolean(e[1])));
  const input = (name: string, label: string) =>
    h('input', { name, placeholder: label, 'aria-label': label, value: params.get(name) ?? '' });
  const fields = [
    input('type', 'type, e.g. TransferCreated'),
    input('resource_type', 'resource type, e.g. transfer'),
    input('resource_id', 'resource id'),
    input('entity_id', 'entity id'),
  ];
  const form = h(
    'form',
    {
      class: 'filters',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const q = new URLSearchParams(fields.filter((f) => f.value.trim()).map((f) => [f.name, f.value.trim()]));
        window.location.hash = `#/events?${q}`;
      },
    },
    fields,
    h('button', { type: 'submit' }, 'Filter'),
  );
  const oldest = page.events[page.events.length - 1];
  return h(
    'div',
    null,
    h('h1', null, 'Events'),
    form,
    h('p', { class: 'hint' }, 'Newest first.'),
    table(
      ['position', 'time', 'type', 'resource', 'actor'],
      page.events.map((e) => [
        String(e.position),
        stamp(e.created),
        e.type,
        collectionOf(e.resource_id) ? link(`history/${e.resource_id}`, e.resource_id) : e.resource_id,
        e.metadata.actor ?? '—',
      ]),
      { id: 'events', empty: 'No events.' },
    ),
    h(
      'p',
      { class: 'pager' },
      Number.isFinite(before) ? h('a', { href: `#/events?${query({})}`, id: 'events-newest' }, '← Newest') : null,
      ' ',
      page.older && oldest
        ? h('a', { href: `#/events?${query({ before: String(oldest.position) })}`, id: 'events-older' }, 'Older →')
        : null,
    ),
  );
}

/** Any resource's event history by id: the collection follows from the id's prefix. */
export async function historyView(id: string | null): Promise<Node> {
  const input = h('input', {
    id: 'history-id',
    placeholder: 'trf_…, acc_…, ent_…, pi_…, crd_…, whk_…',
    'aria-label': 'resource id',
    value: id ?? '',
  });
  const form = h(
    'form',
    {
      class: 'filters',
      onsubmit: (event: Event) => {
        event.preventDefault();
        if (input.value.trim()) window.location.hash = `#/history/${encodeURIComponent(input.value.trim())}`;
      },
    },
    input,
    h('button', { type: 'submit' }, 'Show history'),
  );
  if (!id) return h('div', null, h('h1', null, 'Event history'), form);
  const collection = collectionOf(id);
  if (!collection)
    return h(
      'div',
      null,
      h('h1', null, 'Event history'),
      form,
      h('p', { class: 'error' }, `${id} is not the id of a resource with a history.`),
    );
  const history = await get<{ data: PublicEvent[] }>(path(collection, id, 'history'));
  return h(
    'div',
    null,
    h('h1', null, `Event history of ${id}`),
    form,
    section(`${history.data.length} events, oldest first`, timeline(history.data)),
  );
}
