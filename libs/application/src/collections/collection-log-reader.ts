import { collectionIn, NO_COLLECTION, type AccountEvent, type CollectionFacts } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream } from '../accounts/streams';

/**
 * What the account's log says of one collection (its credit, its refunds), read from the intent's
 * confirmation on (`account_revision`; 0 for older logs): the credit and every refund come after it.
 * Built per command and called per attempt, after the fold the append is checked against; each call
 * reads on from where the previous one stopped, so a retry after a conflict reads only what is new.
 * This is how the account state keeps no list of collections or refunds (decisions/collections.md).
 */
export function collectionLogReader(store: EventStore, accountId: string, paymentIntentId: string, confirmedAt: number | undefined): () => Promise<CollectionFacts> {
  let next = confirmedAt === undefined ? 0 : confirmedAt + 1;
  let facts = NO_COLLECTION;
  return async () => {
    const events = await store.readStream(accountStream(accountId), { fromRevision: next });
    facts = collectionIn(events as unknown as AccountEvent[], paymentIntentId, facts);
    next = events.length ? events[events.length - 1].revision + 1 : next;
    return facts;
  };
}
