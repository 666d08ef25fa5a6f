import type { AccountEvent } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream } from './streams';

/**
 * The account's event, from `fromRevision` on, that `matches`, for a command built per attempt (the
 * read follows the fold the append is checked against). Each call reads on from where the previous
 * one stopped, so a retry after a conflict reads only the new events. This is how a consequence
 * keyed by its movement (a book transfer's credit, a reversal's, a collection's credit or refund)
 * is applied once while the account state keeps only what is open: the movement's own stream
 * records the account revision its step was decided at, and the read starts there, so it is
 * bounded by what happened since, never by the account's age.
 */
export function accountLogFinder<T extends AccountEvent>(
  store: EventStore,
  accountId: string,
  fromRevision: number,
  matches: (event: AccountEvent) => event is T,
): () => Promise<T | null> {
  let next = Math.max(0, fromRevision);
  let found: T | null = null;
  return async () => {
    if (found) return found;
    const events = await store.readStream(accountStream(accountId), { fromRevision: next });
    found = (events as unknown as AccountEvent[]).find(matches) ?? null;
    next = events.length ? events[events.length - 1].revision + 1 : next;
    return found;
  };
}

/** Whether the account's log, from `fromRevision` on, holds an event that `matches` (as accountLogFinder). */
export function accountLogReader(
  store: EventStore,
  accountId: string,
  fromRevision: number,
  matches: (event: AccountEvent) => boolean,
): () => Promise<boolean> {
  const find = accountLogFinder(store, accountId, fromRevision, (event): event is AccountEvent => matches(event));
  return async () => (await find()) !== null;
}
