import { get, path } from '../api';
import { facts, h, link, money, pill, section, time } from '../dom';
import type { PublicEvent, Transfer } from '../types';
import { timeline } from './timeline';

/** A transfer and its timeline: every event of its stream, oldest first (GET /transfers/{id}/history). */
export async function transferView(entityId: string, id: string): Promise<Node> {
  const [transfer, history] = await Promise.all([get<Transfer>(path('transfers', id), { entity_id: entityId }), get<{ data: PublicEvent[] }>(path('transfers', id, 'history'))]);
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
      ['counterparty', transfer.counterparty_id ?? '—'],
      ['description', transfer.description ?? '—'],
      ['status reason', transfer.status_reason ?? '—'],
      ['created', time(transfer.created)],
      ['updated', time(transfer.updated)],
    ]),
    section('Timeline', timeline(history.data)),
  );
}
