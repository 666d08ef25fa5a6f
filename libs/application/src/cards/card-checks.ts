import { notFound, rule, type DomainError } from '@app/domain';
import { accountDecider, currencyInfo, type OpenAccountState } from '@app/domain/accounts';
import { cardDecider, fxRate, convert, type FxQuote, type FxTable, type IssuedCardState } from '@app/domain/cards';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type Actor } from '../command-handling';
import { accountStream, isAccountId } from '../accounts/streams';
import { cardStream, isCardId } from './streams';

const fail = (error: DomainError): never => {
  throw new DomainException(error);
};

/** The card as the caller may see it: 404 when absent, another organization's or mode's; 403 another entity's. */
export async function loadCard(store: EventStore, actor: Actor, cardId: string): Promise<IssuedCardState> {
  const loaded = isCardId(cardId) ? await loadAggregate(store, cardStream(cardId), cardDecider, { actor }) : null;
  if (!loaded || loaded.state.status !== 'issued') return fail(notFound('card', cardId));
  return loaded.state;
}

export async function loadAccount(store: EventStore, actor: Actor, accountId: string): Promise<OpenAccountState> {
  const loaded = isAccountId(accountId)
    ? await loadAggregate(store, accountStream(accountId), accountDecider, { actor })
    : null;
  if (!loaded || loaded.state.status !== 'open') return fail(notFound('account', accountId));
  return loaded.state;
}

/** The conversion an authorization (or a card's account) needs; 422 when the table lacks a currency. */
export function fxQuote(table: FxTable, cardCurrency: string, accountCurrency: string, amount: number): FxQuote | null {
  if (cardCurrency === accountCurrency) return null;
  const rate = fxRate(table, cardCurrency, accountCurrency);
  if (rate === null) {
    return fail(
      rule('fx_not_supported', `No sandbox rate from ${cardCurrency} to ${accountCurrency} (table of ${table.date})`, [
        { field: 'currency', message: 'no FX rate for this pair' },
      ]),
    );
  }
  const from = currencyInfo(cardCurrency)!.minor_units;
  const to = currencyInfo(accountCurrency)!.minor_units;
  return { rate, account_currency: accountCurrency, account_amount: convert(amount, rate, from, to) };
}
