import { get, type StyleA, type StyleB } from '../api';
import { h, link, money, section, table } from '../dom';
import type { Account, Entity, Ledger, PaymentIntent } from '../types';

export async function overviewView(): Promise<Node> {
  const [ledger, entities, accounts, intents] = await Promise.all([
    get<{ data: Ledger }>('/ledger'),
    get<StyleA<Entity>>('/entities', { limit: 5 }),
    get<StyleA<Account>>('/accounts', { limit: 5 }),
    get<StyleB<PaymentIntent>>('/payment-intents', { limit: 5 }),
  ]);
  const customer = (currency: string) =>
    ledger.data.accounts.filter((a) => a.kind === 'customer' && a.currency === currency);
  return h(
    'div',
    null,
    h('h1', null, 'Overview'),
    section(
      'Money held for customers, per currency',
      table(
        ['currency', 'accounts', 'balance (posted)', 'pending out'],
        ledger.data.currencies.map((c) => {
          const accounts = customer(c.currency);
          const posted = accounts.reduce((sum, a) => sum + a.credits_posted - a.debits_posted, 0);
          const pending = accounts.reduce((sum, a) => sum + a.debits_pending, 0);
          return [c.currency, String(accounts.length), money(posted, c.currency), money(pending, c.currency)];
        }),
        { empty: 'No money has moved yet.' },
      ),
      h('p', null, link('ledger', 'The whole ledger →')),
    ),
    section(
      'Latest entities',
      table(
        ['entity', 'type', 'status'],
        entities.data.map((e) => [link(`entities/${e.id}`, entityName(e)), e.type, e.status]),
      ),
      h('p', null, link('entities', 'All entities →')),
    ),
    section(
      'Latest accounts',
      table(
        ['account', 'currency', 'available', 'current'],
        accounts.data.map((a) => [
          link(`accounts/${a.id}`, a.display_name ?? a.id),
          a.currency,
          money(a.balance.available, a.currency),
          money(a.balance.current, a.currency),
        ]),
      ),
      h('p', null, link('accounts', 'All accounts →')),
    ),
    section(
      'Latest payment intents',
      table(
        ['intent', 'amount', 'status'],
        intents.data.map((i) => [link(`payment-intents/${i.id}`, i.reference), money(i.amount, i.currency), i.status]),
      ),
      h('p', null, link('payment-intents', 'All payment intents →')),
    ),
  );
}

export function entityName(e: Entity): string {
  const p = (e.profile ?? {}) as Record<string, unknown>;
  return (
    e.name ?? (p.legal_name as string | undefined) ?? ([p.first_name, p.last_name].filter(Boolean).join(' ') || e.id)
  );
}
