import type { AccountEvent, Balance } from '@app/domain/accounts';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream } from '../streams';

export interface LandedCredit {
  readonly revision: number;
  readonly balance_after: Balance;
  readonly funded: number;
}

/**
 * Whether the account's log holds the credit of one inflow transaction, for a command built per
 * attempt. It reads from `fromRevision` (the account revision its reservation's checks were made
 * on, + 1: the credit can only come after), and each call reads on from where the previous one
 * stopped, so a retry after a conflict reads only the new events. The account state keeps no
 * inflow ids (it would grow with history); this read is bounded by the events since the reservation.
 */
export function inflowCreditReader(
  store: EventStore,
  accountId: string,
  transactionId: string,
  fromRevision: number,
): () => Promise<LandedCredit | null> {
  let next = fromRevision;
  let found: LandedCredit | null = null;
  return async () => {
    if (found) return found;
    const events = await store.readStream(accountStream(accountId), { fromRevision: next });
    for (const recorded of events) {
      const event = recorded as unknown as AccountEvent;
      if (event.type === 'AccountFunded' && event.data.transaction_id === transactionId) {
        found = { revision: recorded.revision, balance_after: event.data.balance_after, funded: event.data.funded };
        break;
      }
    }
    next = events.length ? events[events.length - 1].revision + 1 : next;
    return found;
  };
}
