import { closedHoldIn, type AccountEvent, type ClosedHold } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream } from './streams';

/**
 * How the account's log closed one hold, for a command built per attempt: each call reads on from
 * where the previous one stopped, so a retry after a conflict reads only the new events. The
 * account state keeps open holds only; this is read for reversals, which are rare.
 */
export function closedHoldReader(store: EventStore, accountId: string, holdId: string): () => Promise<ClosedHold | null> {
  let next = 0;
  let closed: ClosedHold | null = null;
  return async () => {
    const events = await store.readStream(accountStream(accountId), { fromRevision: next });
    closed = closedHoldIn(events as unknown as AccountEvent[], holdId, closed);
    next = events.length ? events[events.length - 1].revision + 1 : next;
    return closed;
  };
}
