import { get, path } from '../api';
import { facts, h, link, pill, section, time, stamp } from '../dom';
import type { Counterparty } from '../types';
import { entityName } from './overview';
import {
  boundHint,
  counterpartyName,
  entityOptions,
  filterBar,
  mergedPages,
  organizationEntities,
  select,
} from './organization';
import { pagedRows, pagedTable, styleAPages } from './paged';
import { historyLink } from './timeline';

/** Every counterparty of the organization by name, newest first, by entity, type and status. */
export async function counterpartiesView(params: URLSearchParams): Promise<Node> {
  const { entities, more } = await organizationEntities();
  const entity = params.get('entity_id');
  const query = { type: params.get('type'), status: params.get('status') };
  const pages = entity
    ? styleAPages<Counterparty>('/counterparties', { ...query, entity_id: entity })
    : mergedPages<Counterparty>(
        '/counterparties',
        query,
        entities.map((e) => e.id),
      );
  const names = new Map(entities.map((e) => [e.id, entityName(e)]));
  const filters = filterBar('counterparties', params, [
    select('entity_id', 'every entity', entityOptions(entities)),
    select('type', 'every type', [
      ['individual', 'individual'],
      ['business', 'business'],
    ]),
    select('status', 'every status', [
      ['active', 'active'],
      ['inactive', 'inactive'],
    ]),
  ]);
  const list = await pagedRows<Counterparty>(
    pages,
    ['counterparty', 'type', 'status', 'entity', 'created'],
    (c) => [
      link(`counterparties/${c.id}`, counterpartyName(c)),
      c.type,
      pill(c.status),
      link(`entities/${c.entity_id}`, names.get(c.entity_id) ?? c.entity_id),
      stamp(c.created),
    ],
    { id: 'counterparties', empty: 'No counterparties.' },
  );
  return h(
    'div',
    null,
    h('h1', null, 'Counterparties'),
    filters,
    entity ? null : boundHint(more, 'counterparties'),
    list,
  );
}

interface PaymentDetail {
  id: string;
  payment_method: string;
  currency: string;
  country: string;
  status: string;
  created: number;
}

export async function counterpartyView(id: string): Promise<Node> {
  const c = await get<Counterparty>(path('counterparties', id));
  const details = await pagedTable<PaymentDetail>(
    path('counterparties', id, 'payment-details'),
    {},
    ['payment detail', 'method', 'currency', 'country', 'status', 'added'],
    (d) => [d.id, d.payment_method, d.currency, d.country, pill(d.status), stamp(d.created)],
    { id: 'payment-details', empty: 'No payment details.' },
  );
  const p = c.profile as Record<string, unknown>;
  return h(
    'div',
    null,
    h('h1', null, counterpartyName(c), ' ', pill(c.status)),
    facts([
      ['id', c.id],
      ['type', c.type],
      ['entity', link(`entities/${c.entity_id}`, c.entity_id)],
      ['email', (p.email as string | null) ?? '—'],
      ['relationship', (p.relationship as string | null) ?? '—'],
      ['created', time(c.created)],
      ['history', historyLink(c.id)],
    ]),
    section('Payment details', details),
  );
}
