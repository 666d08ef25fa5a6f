import { createHash } from 'node:crypto';
import { canonicalJson } from '@app/platform/event-store/hash-chain/event-hash';
import type { ReadDocument, ReadStore } from '@app/platform/read-store/read-store.port';

export interface CollectionDigest {
  readonly documents: number;
  readonly digest: string;
  /** id → digest of one document, to name the ones that differ. */
  readonly byId: Map<string, string>;
}

/** A digest over a collection: its documents' canonical JSON, by id order. */
export function digestOf(documents: Iterable<ReadDocument>): CollectionDigest {
  const byId = new Map<string, string>();
  for (const doc of documents) byId.set(doc.id, createHash('sha256').update(canonicalJson(doc)).digest('hex'));
  const total = createHash('sha256');
  for (const id of [...byId.keys()].sort()) total.update(`${id}:${byId.get(id)}\n`);
  return { documents: byId.size, digest: total.digest('hex'), byId };
}

/** Every live document of a collection, paged newest first through the port (SQLite or MongoDB). */
export async function liveDocuments(store: ReadStore, collection: string, organizationId?: string): Promise<ReadDocument[]> {
  const documents: ReadDocument[] = [];
  for (let before: string | undefined; ; ) {
    const page = await store.find(collection, { limit: 500, before, filter: organizationId ? { organization_id: organizationId } : undefined });
    documents.push(...page.items);
    if (!page.hasMore || !page.items.length) return documents;
    before = page.items[page.items.length - 1].id;
  }
}

/** Ids whose documents differ, or exist on one side only. */
export function differingIds(rebuilt: CollectionDigest, live: CollectionDigest): string[] {
  const ids = new Set([...rebuilt.byId.keys(), ...live.byId.keys()]);
  return [...ids].filter((id) => rebuilt.byId.get(id) !== live.byId.get(id)).sort();
}
