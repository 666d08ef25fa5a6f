import { notFound } from '@app/domain';
import { accountDecider, type OpenAccountState } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, loadAggregate, type Actor } from '../command-handling';
import { accountStream, isAccountId } from './streams';

/** Folds the stream: read-your-writes, tenancy enforced (another org: 404, another entity: 403). */
export async function loadOpenAccount(store: EventStore, actor: Actor, accountId: string): Promise<OpenAccountState> {
  if (!isAccountId(accountId)) throw new DomainException(notFound('account', accountId));
  const loaded = await loadAggregate(store, accountStream(accountId), accountDecider, { actor });
  if (!loaded || loaded.state.status !== 'open') throw new DomainException(notFound('account', accountId));
  return loaded.state;
}
