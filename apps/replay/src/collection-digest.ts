import { createHash } from 'node:crypto';
import { canonicalJson } from '@app/platform/event-store/hash-chain/event-hash';
import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';

/** A document the two sides disagree on: `rebuilt` is the replay's (null: the replay has none). */
export interface Difference {
  readonly id: string;
  readonly message: string;
  readonly rebuilt: ReadDocument | null;
}

export interface Comparison {
  /** Documents on each side. */
  readonly rebuilt: number;
  readonly live: number;
  /** The rebuilt collection's digest: SHA-256 over `<id>:<SHA-256 of the document's canonical JSON>\n`, by id order. */
  readonly digest: string;
  readonly differing: number;
}

const PAGE = 500;

/**
 * Every document of a collection in ascending id order, a page at a time through the port (SQLite
 * or MongoDB): `after` walks ids upwards (the page comes newest first, so it is turned round).
 */
export async function* ascending(
  store: ReadStore,
  collection: string,
  organizationId?: string,
): AsyncGenerator<ReadDocument> {
  for (let after = ''; ;) {
    const page = await store.find(collection, {
      limit: PAGE,
      after,
      filter: organizationId ? { organization_id: organizationId } : undefined,
    });
    const items = page.items.reverse();
    yield* items;
    if (!page.hasMore || !items.length) return;
    after = items[items.length - 1].id;
  }
}

const documentHash = (doc: ReadDocument) => createHash('sha256').update(canonicalJson(doc)).digest('hex');

/**
 * Compares a collection rebuilt by the replay with the live one, both read in id order at once (a
 * merge), so memory holds a page of each, whatever the size of the collection. Each difference is
 * handed to `onDifference` as it is found.
 */
export async function compareCollection(
  rebuiltStore: ReadStore,
  liveStore: ReadStore,
  collection: string,
  organizationId: string | undefined,
  onDifference: (difference: Difference) => Promise<void> | void,
): Promise<Comparison> {
  const total = createHash('sha256');
  const counts = { rebuilt: 0, live: 0, differing: 0 };
  const rebuilt = ascending(rebuiltStore, collection, organizationId);
  const live = ascending(liveStore, collection, organizationId);
  let [r, l] = await Promise.all([rebuilt.next(), live.next()]);
  while (!r.done || !l.done) {
    const order = r.done ? 1 : l.done ? -1 : r.value.id < l.value.id ? -1 : r.value.id > l.value.id ? 1 : 0;
    const rebuiltDoc = order <= 0 ? (r.value as ReadDocument) : null;
    const liveDoc = order >= 0 ? (l.value as ReadDocument) : null;
    const rebuiltHash = rebuiltDoc && documentHash(rebuiltDoc);
    if (rebuiltDoc) {
      total.update(`${rebuiltDoc.id}:${rebuiltHash}\n`);
      counts.rebuilt += 1;
    }
    if (liveDoc) counts.live += 1;
    const message = !liveDoc
      ? 'missing from the live read model'
      : !rebuiltDoc
        ? 'in the live read model, not in the replay'
        : rebuiltHash !== documentHash(liveDoc)
          ? 'differs from the replay'
          : null;
    if (message) {
      counts.differing += 1;
      await onDifference({ id: (rebuiltDoc ?? liveDoc)!.id, message, rebuilt: rebuiltDoc });
    }
    [r, l] = await Promise.all([order <= 0 ? rebuilt.next() : r, order >= 0 ? live.next() : l]);
  }
  return { ...counts, digest: total.digest('hex') };
}
