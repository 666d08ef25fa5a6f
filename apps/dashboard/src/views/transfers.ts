import { get, path } from '../api';
import { facts, h, link, money, pill, section, time, stamp } from '../dom';
import type { PublicEvent, Transfer } from '../types';
import { entityName } from './overview';
import {
  boundHint,
  counterpartyLink,
  entityOptions,
  filterBar,
  mergedPages,
  organizationEntities,
  select,
} from './organization';
import { pagedRows, styleAPages } from './paged';
import { timeline } from './timeline';

const STATUSES = ['pending', 'processing', 'successful', 'failed', 'reversed', 'cancelled'];

/** Every transfer of the organization, newest first, by entity and status (see organization.ts for how the entities' lists merge). */
export async function transfersView(params: URLSearchParams): Promise<Node> {
  const { entities, more } = await organizationEntities();
  const names = new Map(entities.map((e) => [e.id, entityName(e)]));
  const entity = params.get('entity_id');
  const query = { status: params.get('status') };
  const pages = entity
    ? styleAPages<Transfer>('/transfers', { ...query, entity_id: entity })
    : mergedPages<Transfer>(
        '/transfers',
        query,
        entities.map((e) => e.id),
      );
  const filters = filterBar('transfers', params, [
    select('entity_id', 'every entity', entityOptions(entities)),
    select(
      'status',
      'every status',
      STATUSES.map((s) => [s, s]),
    ),
  ]);
  const list = await pagedRows<Transfer>(
    pages,
    ['transfer', 'recipient', 'amount', 'status', 'description', 'entity', 'created'],
    async (t) => [
      link(`entities/${t.entity_id}/transfers/${t.id}`, t.unique_reference || t.id),
      await counterpartyLink(t.counterparty_id),
      money(t.amount, t.currency),
      pill(t.status),
      t.description ?? '—',
      link(`entities/${t.entity_id}`, names.get(t.entity_id) ?? t.entity_id),
      stamp(t.created),
    ],
    { id: 'transfers', empty: 'No transfers.' },
  );
  return h('div', null, h('h1', null, 'Transfers'), filters, entity ? null : boundHint(more, 'transfers'), list);
}

/** A transfer and its timeline: every event of its stream, oldest first (GET /transfers/{id}/history). */
export async function transferView(entityId: string, id: string): Promise<Node> {
  const [transfer, history] = await Promise.all([
    get<Transfer>(path('transfers', id), { entity_id: entityId }),
    get<{ data: PublicEvent[] }>(path('transfers', id, 'history')),
  ]);
  const c = transfer.currency;
  return h(
    'div',
    null,
    h('h1', null, `Transfer ${transfer.unique_reference || transfer.id} `, pill(transfer.status)),
    facts([
      ['id', transfer.id],
      ['amount', money(transfer.amount, c)],
      ['fee', money(transfer.fee, c)],
      ['type', transfer.payment_type],
      ['from account', link(`accounts/${transfer.account_id}`, transfer.account_id)],
      ['entity', link(`entities/${transfer.entity_id}`, transfer.entity_id)],
      ['recipient', await counterpartyLink(transfer.counterparty_id)],
      ['description', transfer.description ?? '—'],
      ['status reason', transfer.status_reason ?? '—'],
      ['created', time(transfer.created)],
      ['updated', time(transfer.updated)],
    ]),
    section('Timeline', timeline(history.data)),
  );
}
