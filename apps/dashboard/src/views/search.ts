import { ApiError, get, path, type StyleA } from '../api';
import { facts, h, json, link, time } from '../dom';
import type { PublicEvent } from '../types';
import { collectionOf } from './timeline';

/** Pages reached from the id alone. */
const DIRECT: Readonly<Record<string, string>> = {
  ent: 'entities',
  acc: 'accounts',
  pi: 'payment-intents',
  crd: 'cards',
  cpt: 'counterparties',
  evt: 'events',
};

/** Ids whose pages need their entity (GET /transfers/{id} and webhooks take `entity_id` with an API key): their first event names it. */
async function entityOf(id: string): Promise<string | null> {
  const page = await get<StyleA<PublicEvent>>('/events', { resource_id: id, limit: 1 });
  return page.data[0]?.entity_id ?? null;
}

/** The dashboard route of an id, from its prefix; null when nothing of the organization has it. */
export async function routeOf(id: string): Promise<string | null> {
  const prefix = id.split('_')[0];
  if (DIRECT[prefix]) return `${DIRECT[prefix]}/${encodeURIComponent(id)}`;
  if (prefix === 'trf' || prefix === 'whk') {
    const entity = await entityOf(id);
    if (!entity) return null;
    return prefix === 'trf' ? `entities/${entity}/transfers/${encodeURIComponent(id)}` : `entities/${entity}`;
  }
  return collectionOf(id) ? `history/${encodeURIComponent(id)}` : null;
}

/** The search box of the header: any id (acc_, trf_, ent_, cpt_, whk_, pi_, crd_, evt_, ia_) opens its page. */
export function searchBox(): HTMLElement {
  const input = h('input', {
    id: 'search',
    type: 'search',
    name: 'id',
    placeholder: 'Open an id: trf_…, acc_…, evt_…',
    'aria-label': 'open an id',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  return h(
    'form',
    {
      id: 'search-form',
      role: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const id = input.value.trim();
        if (id) window.location.hash = `#/search/${encodeURIComponent(id)}`;
        input.value = '';
      },
    },
    input,
  );
}

/** #/search/<id>: the id's page replaces this one in the browser's history, or a word on why there is none. */
export async function searchView(id: string): Promise<Node> {
  const target = await routeOf(id).catch((error: unknown) => {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  });
  if (target) {
    window.location.replace(`#/${target}`);
    return h('p', { class: 'loading' }, `Opening ${id}…`);
  }
  return h(
    'div',
    null,
    h('h1', null, 'Search'),
    h('p', { class: 'error', id: 'search-result' }, `Nothing of this organization has the id ${id}.`),
  );
}

/**
 * One event by id: the API finds an event by id through its inclusion proof (GET /events/{id}/proof),
 * whose leaf gives its position; a newer event than the latest signed checkpoint is not found that way yet.
 */
export async function eventView(id: string): Promise<Node> {
  let position: number;
  try {
    position = (await get<{ leaf: { position: number } }>(path('events', id, 'proof'))).leaf.position;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409)
      return h(
        'div',
        null,
        h('h1', null, id),
        h(
          'p',
          { class: 'hint' },
          'This event is newer than the latest signed checkpoint: it is among the ',
          link('events', 'newest events'),
          '; its page opens once the next checkpoint is signed.',
        ),
      );
    throw error;
  }
  const [event] = (await get<StyleA<PublicEvent>>('/events', { after_position: position - 1, limit: 1 })).data;
  if (!event) return h('p', { class: 'error' }, `No event ${id}.`);
  return h(
    'div',
    null,
    h('h1', null, `${event.type} `, h('code', null, event.id)),
    facts([
      [
        'resource',
        collectionOf(event.resource_id) ? link(`history/${event.resource_id}`, event.resource_id) : event.resource_id,
      ],
      ['entity', event.entity_id ? link(`entities/${event.entity_id}`, event.entity_id) : '—'],
      ['position', String(event.position)],
      ['revision', String(event.revision)],
      ['time', time(event.created)],
      ['actor', event.metadata.actor ?? '—'],
      ['request', event.metadata.request_id ?? '—'],
    ]),
    json(event.data),
  );
}
