import { get, path, type StyleB } from '../api';
import { facts, h, link, money, pill, scroller, section, table, time, stamp } from '../dom';
import type { CardTransaction, PaymentIntent, PublicEvent } from '../types';
import { timeline } from './timeline';
import { decidedBy } from './card-decision';

export async function intentsView(): Promise<Node> {
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'more' }, 'More');
  let cursor: string | null = null;
  const load = async () => {
    const page: StyleB<PaymentIntent> = await get<StyleB<PaymentIntent>>('/payment-intents', {
      limit: 25,
      next_cursor: cursor,
    });
    for (const i of page.data)
      body.appendChild(
        h(
          'tr',
          null,
          [
            link(`payment-intents/${i.id}`, i.reference),
            money(i.amount, i.currency),
            pill(i.status),
            link(`accounts/${i.account_id}`, i.account_id),
            stamp(i.created),
          ].map((cell) => h('td', null, cell)),
        ),
      );
    cursor = page.pagination.next_cursor;
    more.hidden = !page.pagination.has_next;
  };
  more.addEventListener('click', () => void load());
  await load();
  return h(
    'div',
    null,
    h('h1', null, 'Payment intents'),
    scroller(
      h(
        'table',
        { id: 'payment-intents' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['reference', 'amount', 'status', 'account', 'created'].map((n) => h('th', null, n)),
          ),
        ),
        body,
      ),
    ),
    more,
  );
}

export async function intentView(id: string): Promise<Node> {
  const [intent, refunds, history] = await Promise.all([
    get<PaymentIntent>(path('payment-intents', id)),
    get<{ data: { id: string; amount: number; reason: string | null; created: number }[] }>(
      path('payment-intents', id, 'refunds'),
    ),
    get<{ data: PublicEvent[] }>(path('payment-intents', id, 'history')),
  ]);
  return h(
    'div',
    null,
    h('h1', null, `Payment intent ${intent.reference} `, pill(intent.status)),
    facts([
      ['id', intent.id],
      ['amount', money(intent.amount, intent.currency)],
      ['account', link(`accounts/${intent.account_id}`, intent.account_id)],
      ['status reason', intent.status_reason ?? '—'],
      ['description', intent.description ?? '—'],
      ['created', time(intent.created)],
    ]),
    section(
      'Refunds',
      table(
        ['refund', 'amount', 'reason', 'created'],
        refunds.data.map((r) => [r.id, money(r.amount, intent.currency), r.reason ?? '—', stamp(r.created)]),
        { empty: 'No refunds.' },
      ),
    ),
    section('Timeline', timeline(history.data)),
  );
}

/**
 * A card's transactions and history. The card itself is read from its list (last four only):
 * GET /card-details/{id} carries the number and CVV, which the dashboard never asks for.
 */
export async function cardView(id: string): Promise<Node> {
  const [transactions, history] = await Promise.all([
    get<{ data: { payments: CardTransaction[] } }>(path('card-transactions', id), { limit: 100 }),
    get<{ data: PublicEvent[] }>(path('cards', id, 'history')),
  ]);
  const issued = history.data[0]?.data as Record<string, any> | undefined;
  const card = issued?.card ?? issued ?? {};
  return h(
    'div',
    null,
    h('h1', null, `Card •••• ${String(card.last_four ?? '????')}`),
    facts([
      ['id', id],
      ['name', String(card.card_name ?? card.name ?? '—')],
      ['account', card.account_id ? link(`accounts/${card.account_id}`, String(card.account_id)) : '—'],
    ]),
    section(
      'Transactions',
      table(
        ['time', 'merchant', 'amount', 'type', 'status', 'reason', 'decided by', 'decision reason'],
        transactions.data.payments.map((t) => [
          stamp(t.created),
          t.narration ?? '—',
          money(t.amount, t.currency),
          t.type,
          pill(t.status),
          t.status_reason ?? '—',
          decidedBy(t),
          t.authorization?.reason ?? '—',
        ]),
        { id: 'card-transactions', empty: 'No transactions.' },
      ),
    ),
    section('Timeline', timeline(history.data)),
  );
}
