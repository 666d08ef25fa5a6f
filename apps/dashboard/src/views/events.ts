import { get, path, type StyleA } from '../api';
import { h, link, section, table, time } from '../dom';
import type { PublicEvent } from '../types';
import { collectionOf, timeline } from './timeline';

/** The organization's events, oldest first (GET /events), filtered as the API allows. */
export async function eventsView(params: URLSearchParams): Promise<Node> {
  const filters = { type: params.get('type'), resource_type: params.get('resource_type'), resource_id: params.get('resource_id'), after_position: params.get('after_position') };
  const page = await get<StyleA<PublicEvent>>('/events', { ...filters, limit: 100 });
  const next = page.meta.pagination.next_cursor;
  const nextQuery = new URLSearchParams(Object.entries({ ...filters, after_position: next }).filter((e): e is [string, string] => Boolean(e[1])));
  const input = (name: string, label: string) => h('input', { name, placeholder: label, 'aria-label': label, value: params.get(name) ?? '' });
  const fields = [input('type', 'type, e.g. TransferCreated'), input('resource_type', 'resource type, e.g. transfer'), input('resource_id', 'resource id')];
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
  return h(
    'div',
    null,
    h('h1', null, 'Events'),
    form,
    table(
      ['position', 'time', 'type', 'resource', 'actor'],
      page.data.map((e) => [String(e.position), time(e.created), e.type, collectionOf(e.resource_id) ? link(`history/${e.resource_id}`, e.resource_id) : e.resource_id, e.metadata.actor ?? '—']),
      { id: 'events', empty: 'No events.' },
    ),
    page.meta.pagination.has_more && next ? h('p', null, h('a', { href: `#/events?${nextQuery}` }, 'Next page →')) : null,
  );
}

/** Any resource's event history by id: the collection follows from the id's prefix. */
export async function historyView(id: string | null): Promise<Node> {
  const input = h('input', { id: 'history-id', placeholder: 'trf_…, acc_…, ent_…, pi_…, crd_…, whk_…', 'aria-label': 'resource id', value: id ?? '' });
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
  if (!collection) return h('div', null, h('h1', null, 'Event history'), form, h('p', { class: 'error' }, `${id} is not the id of a resource with a history.`));
  const history = await get<{ data: PublicEvent[] }>(path(collection, id, 'history'));
  return h('div', null, h('h1', null, `Event history of ${id}`), form, section(`${history.data.length} events, oldest first`, timeline(history.data)));
}
