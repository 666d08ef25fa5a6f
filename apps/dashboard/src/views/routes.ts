import { h } from '../dom';
import { accountView, accountsView } from './accounts';
import { entitiesView, entityView } from './entities';
import { eventsView, historyView } from './events';
import { cardView, intentView, intentsView } from './collections';
import { ledgerView } from './ledger';
import { overviewView } from './overview';
import { apiKeysView } from './api-keys';
import { counterpartiesView, counterpartyView } from './counterparties';
import { eventView, searchView } from './search';
import { transfersView, transferView } from './transfers';
import { webhooksView } from './webhooks-list';

/** The page for a hash route's segments. */
export function route(parts: string[]): Promise<Node> {
  const [first, id, sub, subId] = parts;
  const params = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
  switch (first) {
    case undefined:
      return overviewView();
    case 'entities':
      if (id && sub === 'transfers' && subId) return transferView(id, subId);
      return id ? entityView(id) : entitiesView();
    case 'accounts':
      return id ? accountView(id) : accountsView();
    case 'ledger':
      return ledgerView(params.get('as_of'));
    case 'payment-intents':
      return id ? intentView(id) : intentsView();
    case 'cards':
      if (id) return cardView(id);
      break;
    case 'events':
      return id ? eventView(id) : eventsView(params);
    case 'transfers':
      return transfersView(params);
    case 'webhooks':
      return webhooksView(params);
    case 'counterparties':
      return id ? counterpartyView(id) : counterpartiesView(params);
    case 'api-keys':
      return apiKeysView();
    case 'search':
      if (id) return searchView(id);
      break;
    case 'history':
      return historyView(id ?? null);
  }
  return Promise.resolve(h('p', { class: 'error' }, 'No such page.'));
}
