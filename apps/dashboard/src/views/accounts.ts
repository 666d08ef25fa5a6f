import { allStyleA, get, path, ApiError } from '../api';
import { facts, h, link, money, pill, replace, section, table, time, stamp } from '../dom';
import { session } from '../session';
import type { Account, Card, StatementEntry, Transfer } from '../types';
import { counterpartyLink } from './organization';
import { pagedTable } from './paged';
import { historyLink } from './timeline';

export async function accountsView(): Promise<Node> {
  return h(
    'div',
    null,
    h('h1', null, 'Accounts'),
    await pagedTable<Account>(
      '/accounts',
      {},
      ['account', 'entity', 'currency', 'available', 'current', 'opened'],
      (a) => [
        link(`accounts/${a.id}`, a.display_name ?? a.id),
        link(`entities/${a.entity_id}`, a.entity_id),
        a.currency,
        money(a.balance.available, a.currency),
        money(a.balance.current, a.currency),
        stamp(a.created),
      ],
      { id: 'accounts' },
    ),
  );
}

/** Statement entries the chart and table read at most (newest first from the API; shown oldest first in the chart). */
const STATEMENT_MAX = 1_000;

export async function accountView(id: string): Promise<Node> {
  const [account, statement, cards] = await Promise.all([
    get<Account>(path('accounts', id)),
    allStyleA<StatementEntry>(path('accounts', id, 'transactions'), {}, STATEMENT_MAX),
    get<{ data: { cards: Card[] } }>('/cards', { account_id: id, limit: 100 }),
  ]);
  const transfers = await statementTransfers(account, statement.items);
  const chart = h('div', { class: 'chart', id: 'balance-chart' });
  const oldestFirst = [...statement.items].reverse();
  // uPlot is its own chunk, loaded with the first chart.
  const { balanceChart } = await import('../chart');
  balanceChart(chart, account, oldestFirst, !statement.more);
  const c = account.currency;
  // A transfer is shown by its description (else its reference) and recipient, not its id.
  const reference = (e: StatementEntry) =>
    e.transfer_id?.startsWith('trf_')
      ? link(
          `entities/${account.entity_id}/transfers/${e.transfer_id}`,
          transfers.get(e.transfer_id)?.description || transfers.get(e.transfer_id)?.unique_reference || e.transfer_id,
        )
      : e.payment_intent_id
        ? link(`payment-intents/${e.payment_intent_id}`, e.payment_intent_id)
        : (e.transfer_id ?? e.transaction_id ?? '—');
  const recipients = await Promise.all(
    statement.items.map((e) => counterpartyLink(e.transfer_id ? transfers.get(e.transfer_id)?.counterparty_id : null)),
  );
  return h(
    'div',
    null,
    h('h1', null, account.display_name ?? account.id),
    facts([
      ['id', account.id],
      ['entity', link(`entities/${account.entity_id}`, account.entity_id)],
      ['type', account.type],
      ['available', h('span', { id: 'balance-available' }, money(account.balance.available, c))],
      ['current', h('span', { id: 'balance-current' }, money(account.balance.current, c))],
      ['opened', time(account.created)],
      ['history', historyLink(account.id)],
    ]),
    section(
      'Balance over time',
      statement.more
        ? h('p', { class: 'hint' }, `More than ${STATEMENT_MAX} entries: the chart shows the latest only.`)
        : null,
      chart,
      asOfForm(account),
    ),
    section(
      'Statement',
      table(
        ['time', 'type', 'amount', 'fee', 'for', 'recipient', 'available after', 'current after'],
        statement.items.map((e, i) => [
          stamp(e.created),
          pill(e.type),
          money(e.amount, c),
          e.fee === null ? '—' : money(e.fee, c),
          reference(e),
          recipients[i],
          money(e.balance_after.available, c),
          money(e.balance_after.current, c),
        ]),
        { id: 'statement', empty: 'No movements yet.' },
      ),
    ),
    section('Monthly statement', statementDownloads(account)),
    section(
      'Cards',
      table(
        ['card', 'name', 'status'],
        cards.data.cards.map((card) => [
          link(`cards/${card.id}`, `•••• ${card.last_four}`),
          card.name,
          pill(card.status),
        ]),
        { empty: 'No cards on this account.' },
      ),
    ),
  );
}

/** The transfers a statement names, by id: the account's transfers (one list, by `account_id`), read only when the statement has any. */
async function statementTransfers(
  account: Account,
  entries: readonly StatementEntry[],
): Promise<Map<string, Transfer>> {
  if (!entries.some((e) => e.transfer_id?.startsWith('trf_'))) return new Map();
  const { items } = await allStyleA<Transfer>(
    '/transfers',
    { entity_id: account.entity_id, account_id: account.id },
    STATEMENT_MAX,
  );
  return new Map(items.map((t) => [t.id, t]));
}

/**
 * The month's statement as a file (decisions §17): fetched with the session's key (a link cannot
 * carry it), then handed to the browser as a download of the blob.
 */
function statementDownloads(account: Account): HTMLElement {
  const thisMonth = new Date().toISOString().slice(0, 7);
  const month = h('input', {
    type: 'month',
    id: 'statement-month',
    value: thisMonth,
    max: thisMonth,
    'aria-label': 'statement month (UTC)',
  });
  const status = h('span', { id: 'statement-status', class: 'hint' });
  const download = async (accept: string, extension: string) => {
    const key = session.key();
    if (!key || !month.value) return;
    replace(status, 'Preparing…');
    const res = await fetch(new URL(path('accounts', account.id, 'statements', month.value), window.location.origin), {
      headers: { authorization: `Bearer ${key}`, accept },
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      replace(status, body?.message ?? `${res.status} ${res.statusText}`);
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    // Not through h(), which keeps links inside the dashboard: this one is the page's own bytes (blob:), saved as a file.
    const a = document.createElement('a');
    a.href = url;
    a.download = `statement-${account.id}-${month.value}.${extension}`;
    document.body.append(a);
    a.click();
    a.remove();
    // The browser has taken the file once the click is handled; the URL is freed after.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    replace(status, `Downloaded the ${month.value} statement (${extension.toUpperCase()}).`);
  };
  return h(
    'p',
    { class: 'statement-form' },
    'Month ',
    month,
    ' (UTC) ',
    h(
      'button',
      { type: 'button', id: 'statement-pdf', onclick: () => void download('application/pdf', 'pdf') },
      'Download PDF',
    ),
    ' ',
    h(
      'button',
      { type: 'button', id: 'statement-csv', onclick: () => void download('text/csv', 'csv') },
      'Download CSV',
    ),
    ' ',
    status,
    h(
      'span',
      { class: 'hint' },
      ' With its balances, totals and the signed checkpoint that proves it (examples/verify-proof.mjs --statement, on the JSON).',
    ),
  );
}

/** The account as it was at a time (`as_of`, decisions §10). */
function asOfForm(account: Account): HTMLElement {
  const input = h('input', { type: 'datetime-local', id: 'as-of', step: '1', 'aria-label': 'as of (UTC)' });
  const out = h('span', { id: 'as-of-balance', class: 'as-of' });
  const show = async () => {
    if (!input.value) return;
    const at = new Date(`${input.value}Z`).toISOString();
    try {
      const then = await get<Account>(path('accounts', account.id), { as_of: at });
      replace(
        out,
        `At ${time(Date.parse(at))}: available ${money(then.balance.available, account.currency)}, current ${money(then.balance.current, account.currency)}`,
      );
    } catch (error) {
      replace(
        out,
        error instanceof ApiError && error.status === 404
          ? 'The account did not exist yet then.'
          : (error as Error).message,
      );
    }
  };
  return h(
    'p',
    { class: 'as-of-form' },
    'Balance as of ',
    input,
    ' UTC ',
    h('button', { type: 'button', onclick: () => void show() }, 'Show'),
    ' ',
    out,
  );
}
