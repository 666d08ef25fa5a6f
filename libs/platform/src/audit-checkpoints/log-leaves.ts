import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { withChain } from '../event-store/hash-chain/chain-upcast';
import { storedHash } from '../event-store/hash-chain/event-hash';
import { HashChainedEventStore } from '../event-store/hash-chain/hash-chained-event-store';
import type { AuditLeaf } from './merkle';

/** The log as stored (hashes as written), under the chaining and upcasting wrapper. */
export function storedForm(store: EventStore): EventStore {
  return store instanceof HashChainedEventStore ? store.inner : store;
}

export const auditLeafOf = (event: RecordedEvent, chainHash: string): AuditLeaf => ({
  position: event.position,
  stream_id: event.streamId,
  revision: event.revision,
  hash: chainHash,
});

const CACHE_CAPACITY = 10_000;

/**
 * The chain hash of an event as the history shows it: its stored `metadata.hash`, or for an event
 * written before chains the hash the chain upcaster gives it (withChain over its stream up to it).
 * Only such legacy events cost a read of their stream; a small cache keeps the last hash per
 * stream, so a legacy stream's events in log order read it once.
 */
export class ChainHashes {
  private readonly last = new Map<string, { revision: number; hash: string }>();

  constructor(private readonly raw: EventStore) {}

  async of(event: RecordedEvent): Promise<string> {
    const stored = storedHash(event.metadata);
    if (stored) {
      this.remember(event.streamId, event.revision, stored);
      return stored;
    }
    const known = this.last.get(event.streamId);
    const chained =
      known && known.revision === event.revision - 1
        ? withChain([event], known.hash)
        : withChain((await this.raw.readStream(event.streamId)).filter((e) => e.revision <= event.revision));
    const hash = storedHash(chained[chained.length - 1].metadata)!;
    this.remember(event.streamId, event.revision, hash);
    return hash;
  }

  private remember(streamId: string, revision: number, hash: string): void {
    this.last.delete(streamId);
    this.last.set(streamId, { revision, hash });
    if (this.last.size > CACHE_CAPACITY) this.last.delete(this.last.keys().next().value as string);
  }
}
