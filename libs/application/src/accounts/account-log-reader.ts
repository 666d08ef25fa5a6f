import type { AccountEvent } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream } from './streams';

/**
 * Whether the account's log, from `fromRevision` on, holds an event that `matches`, for a command
 * built per attempt (the read follows the fold the append is checked against). Each call reads on
 * from where the previous one stopped, so a retry after a conflict reads only the new events. This
 * is how a consequence keyed by its movement (a book transfer's credit) is applied once while the
 * account state keeps only what is open: the caller bounds the read by where the movement began.
 */
export function accountLogReader(store: EventStore, accountId: string, fromRevision: number, matches: (event: AccountEvent) => boolean): () => Promise<boolean> {
  let next = Math.max(0, fromRevision);
  let found = false;
  return async () => {
    if (found) return true;
    const events = await store.readStream(accountStream(accountId), { fromRevision: next });
    found = events.some((recorded) => matches(recorded as unknown as AccountEvent));
    next = events.length ? events[events.length - 1].revision + 1 : next;
    return found;
  };
}
