import { h, json, link, stamp } from '../dom';
import type { PublicEvent } from '../types';

/** The collection of a resource's history route, from its id's prefix (decisions §10). */
export const HISTORY_COLLECTIONS: Readonly<Record<string, string>> = {
  ent: 'entities',
  acc: 'accounts',
  cpt: 'counterparties',
  trf: 'transfers',
  pi: 'payment-intents',
  ia: 'intent-actions',
  crd: 'cards',
  whk: 'entity-webhooks',
};

export const collectionOf = (id: string): string | null => HISTORY_COLLECTIONS[id.split('_')[0]] ?? null;

/** What changed, in a few words: the status the event left the resource in, when it says. */
function summary(event: PublicEvent): string {
  const d = event.data as Record<string, any>;
  const status = d.transfer?.status ?? d.intent?.status ?? d.transaction?.status ?? d.status ?? null;
  const amount = d.amount ?? d.transfer?.amount ?? d.transaction?.amount ?? null;
  return [status && `status ${status}`, amount !== null && amount !== undefined && `amount ${amount}`]
    .filter(Boolean)
    .join(', ');
}

/** A resource's events, oldest first: each with its time, actor, position and data. */
export function timeline(events: readonly PublicEvent[]): HTMLElement {
  return h(
    'ol',
    { class: 'timeline', id: 'timeline' },
    events.map((e) =>
      h(
        'li',
        { 'data-type': e.type },
        h('div', { class: 'when' }, stamp(e.created)),
        h('div', { class: 'what' }, h('strong', { class: 'event-type' }, e.type), summary(e) ? ` · ${summary(e)}` : ''),
        h(
          'div',
          { class: 'meta' },
          `${e.metadata.actor ?? 'unknown actor'} · revision ${e.revision} · position ${e.position}`,
        ),
        h(
          'details',
          null,
          h('summary', null, 'data'),
          json(e.data),
          h('p', { class: 'hash' }, `hash ${e.metadata.hash ?? '—'}`),
        ),
      ),
    ),
  );
}

export const historyLink = (id: string) => (collectionOf(id) ? link(`history/${id}`, 'event history') : null);
