import { get, path, type StyleA } from '../api';
import { facts, h, link, money, pill, section, table, stamp, time } from '../dom';
import type { Account, Card, Entity, Transfer, Webhook } from '../types';
import { entityName } from './overview';
import { pagedTable } from './paged';
import { historyLink } from './timeline';
import { deliveriesSection, webhooksTable } from './webhooks';

export async function entitiesView(): Promise<Node> {
  return h(
    'div',
    null,
    h('h1', null, 'Entities'),
    await pagedTable<Entity>(
      '/entities',
      {},
      ['entity', 'type', 'status', 'created'],
      (e) => [link(`entities/${e.id}`, entityName(e)), e.type, pill(e.status), stamp(e.created)],
      { id: 'entities' },
    ),
  );
}

export async function entityView(id: string): Promise<Node> {
  const entity = await get<Entity>(path('entities', id));
  const [accounts, transfers, cards, webhooks] = await Promise.all([
    get<StyleA<Account>>('/accounts', { entity_id: id, limit: 100 }),
    pagedTable<Transfer>(
      '/transfers',
      { entity_id: id },
      ['transfer', 'amount', 'fee', 'type', 'status', 'created'],
      (t) => [
        link(`entities/${id}/transfers/${t.id}`, t.unique_reference || t.id),
        money(t.amount, t.currency),
        money(t.fee, t.currency),
        t.payment_type,
        pill(t.status),
        stamp(t.created),
      ],
      { id: 'transfers', empty: 'No transfers.' },
    ),
    get<{ data: { cards: Card[] } }>('/cards', { entity_id: id, limit: 100 }),
    get<StyleA<Webhook>>('/entity-webhooks', { entity_id: id, limit: 100 }),
  ]);
  return h(
    'div',
    null,
    h('h1', null, entityName(entity), ' ', pill(entity.status)),
    facts([
      ['id', entity.id],
      ['type', entity.type],
      ['status reason', entity.status_reason ?? '—'],
      ['created', time(entity.created)],
      ['history', historyLink(entity.id)],
    ]),
    section(
      'Accounts',
      table(
        ['account', 'currency', 'available', 'current'],
        accounts.data.map((a) => [
          link(`accounts/${a.id}`, a.display_name ?? a.id),
          a.currency,
          money(a.balance.available, a.currency),
          money(a.balance.current, a.currency),
        ]),
        { id: 'entity-accounts', empty: 'No accounts.' },
      ),
    ),
    section('Transfers', transfers),
    section(
      'Cards',
      table(
        ['card', 'name', 'type', 'status', 'created'],
        cards.data.cards.map((c) => [
          link(`cards/${c.id}`, `•••• ${c.last_four}`),
          c.name,
          c.type,
          pill(c.status),
          stamp(c.created),
        ]),
        { id: 'cards', empty: 'No cards.' },
      ),
    ),
    section('Webhooks', webhooksTable(webhooks.data)),
    await deliveriesSection(id),
  );
}
