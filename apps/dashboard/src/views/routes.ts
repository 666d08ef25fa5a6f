import { h } from '../dom';
import { accountView, accountsView } from './accounts';
import { entitiesView, entityView } from './entities';
import { eventsView, historyView } from './events';
import { cardView, intentView, intentsView } from './collections';
import { ledgerView } from './ledger';
import { overviewView } from './overview';
import { transferView } from './transfers';

/** The page for a hash route's segments. */
export function route(parts: string[]): Promise<Node> {
  const [first, id, sub, subId] = parts;
  switch (first) {
    case undefined:
      return overviewView();
    case 'entities':
      if (id && sub === 'transfers' && subId) return transferView(id, subId);
      return id ? entityView(id) : entitiesView();
    case 'accounts':
      return id ? accountView(id) : accountsView();
    case 'ledger':
      return ledgerView(new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('as_of'));
    case 'payment-intents':
      return id ? intentView(id) : intentsView();
    case 'cards':
      if (id) return cardView(id);
      break;
    case 'events':
      return eventsView(new URLSearchParams(window.location.hash.split('?')[1] ?? ''));
    case 'history':
      return historyView(id ?? null);
  }
  return Promise.resolve(h('p', { class: 'error' }, 'No such page.'));
}
