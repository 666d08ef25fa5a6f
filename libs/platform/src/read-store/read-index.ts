import type { Projection } from './projection';

/**
 * The indexes one collection's lists need. Each index is a list of document fields tried in order
 * (equality filters first, then at most one range field); adapters append the document id,
 * descending, so every index also serves the newest-first sort and the before/after cursors.
 */
export interface CollectionIndexes {
  readonly collection: string;
  readonly indexes: readonly (readonly string[])[];
}

/** The indexes every projection declares, merged per collection (several projections may share one). */
export function indexesOf(projections: readonly Pick<Projection, 'collection' | 'indexes'>[]): CollectionIndexes[] {
  const byCollection = new Map<string, Map<string, readonly string[]>>();
  for (const p of projections) {
    const known = byCollection.get(p.collection) ?? new Map<string, readonly string[]>();
    byCollection.set(p.collection, known);
    for (const fields of p.indexes ?? []) known.set(fields.join(','), fields);
  }
  return [...byCollection].map(([collection, indexes]) => ({ collection, indexes: [...indexes.values()] }));
}

/**
 * The usual shape of a list over one tenant's world: organization and mode, alone and with each
 * optional filter. A query with several optional filters uses the index of one of them and checks
 * the others on the rows it reads (all of one tenant's documents with that value at most).
 */
export function organizationIndexes(...filters: readonly string[]): string[][] {
  return [['organization_id', 'mode'], ...filters.map((f) => ['organization_id', 'mode', f])];
}

const FIELD = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/i;
const COLLECTION = /^[a-z_][a-z0-9_]*$/i;

export function assertFieldName(field: string): void {
  // Field names become JSON paths and document paths, never taken from users unchecked.
  if (!FIELD.test(field)) throw new Error(`invalid field name ${field}`);
}

export function assertCollectionName(collection: string): void {
  // Collection names are written into SQL as literals (so partial indexes apply): code constants only.
  if (!COLLECTION.test(collection)) throw new Error(`invalid collection name ${collection}`);
}
