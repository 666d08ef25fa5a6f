import { get } from '../api';
import { h, money, pill, section, table } from '../dom';
import type { Ledger } from '../types';

/** The books of the key's organization and mode (decisions §12), per currency and per ledger account; `as_of` as for resources. */
export async function ledgerView(asOf: string | null): Promise<Node> {
  const { data: ledger } = await get<{ data: Ledger }>('/ledger', { as_of: asOf });
  const input = h('input', { type: 'datetime-local', id: 'ledger-as-of', step: '1', 'aria-label': 'as of (UTC)' });
  const form = h(
    'p',
    null,
    'As of ',
    input,
    ' UTC ',
    h(
      'button',
      {
        type: 'button',
        onclick: () =>
          input.value &&
          (window.location.hash = `#/ledger?as_of=${encodeURIComponent(new Date(`${input.value}Z`).toISOString())}`),
      },
      'Show',
    ),
    ' ',
    asOf ? h('a', { href: '#/ledger' }, 'now') : null,
  );
  return h(
    'div',
    null,
    h('h1', null, 'Ledger'),
    h(
      'p',
      { class: 'hint' },
      `${asOf ? `As of ${asOf}` : 'Now'}: log position ${ledger.position}. Every movement is a balanced double-entry transaction, so each currency's debits equal its credits.`,
    ),
    form,
    section(
      'Per currency',
      table(
        ['currency', 'debits posted', 'credits posted', 'debits pending', 'credits pending', 'balanced'],
        ledger.currencies.map((c) => {
          const balanced = c.debits_posted === c.credits_posted && c.debits_pending === c.credits_pending;
          return [
            c.currency,
            money(c.debits_posted, c.currency),
            money(c.credits_posted, c.currency),
            money(c.debits_pending, c.currency),
            money(c.credits_pending, c.currency),
            pill(balanced ? 'balanced' : 'unbalanced'),
          ];
        }),
        { id: 'ledger-currencies', empty: 'No money has moved yet.' },
      ),
    ),
    section(
      'Ledger accounts',
      table(
        [
          'account',
          'kind',
          'currency',
          'debits posted',
          'credits posted',
          'debits pending',
          'credits pending',
          'net (credits − debits)',
        ],
        ledger.accounts.map((a) => [
          a.kind === 'customer' ? h('a', { href: `#/accounts/${a.id}` }, a.id) : a.id,
          a.kind,
          a.currency,
          money(a.debits_posted, a.currency),
          money(a.credits_posted, a.currency),
          money(a.debits_pending, a.currency),
          money(a.credits_pending, a.currency),
          money(a.credits_posted - a.debits_posted, a.currency),
        ]),
        { id: 'ledger-accounts' },
      ),
    ),
  );
}
