import type { CollectionIndexes } from './read-index';

/** Read models: documents for lists, filters and cursors, rebuilt from the log at will. */

export interface ReadDocument {
  readonly id: string;
  [field: string]: unknown;
}

/** Equality filters on top-level fields; `undefined` values are ignored. */
export type Filter = Record<string, string | number | boolean | null | undefined>;

export interface PageQuery {
  readonly filter?: Filter;
  readonly limit: number;
  /** Only documents with an id strictly below this one (the next, older page). */
  readonly before?: string;
  /** Only documents with an id strictly above this one (the previous, newer page). */
  readonly after?: string;
  /**
   * Inclusive bounds on a numeric field, e.g. `created` for date filters. Applied with the filter.
   */
  readonly range?: { readonly field: string; readonly gte?: number; readonly lte?: number };
}

export interface Page<T> {
  /** Always newest (highest id) first. */
  readonly items: T[];
  /** Whether more documents lie beyond the page in the direction read. */
  readonly hasMore: boolean;
}

/**
 * One guarded write of a projection: applied only when `position` is beyond the position the
 * document was last written at, so a replayed event changes nothing.
 */
export interface ProjectionWrite {
  readonly collection: string;
  readonly id: string;
  readonly position: number;
  evolve(current: ReadDocument | null): ReadDocument | null;
}

export interface ReadStore {
  get<T extends ReadDocument>(collection: string, id: string): Promise<T | null>;
  /** Ordered by id descending (ids are ULID-based, so newest first). */
  find<T extends ReadDocument>(collection: string, query: PageQuery): Promise<Page<T>>;
  /** Applies the writes in order, then records the checkpoints; atomically where the adapter can. */
  apply(writes: readonly ProjectionWrite[], checkpoints: Readonly<Record<string, number>>): Promise<void>;
  getCheckpoint(name: string): Promise<number>;
  /**
   * Creates the indexes the list queries need and drops undeclared ones; called once at startup by
   * every process (idempotent), never on the request path.
   */
  ensureIndexes(declared: readonly CollectionIndexes[]): Promise<void>;
  /**
   * Deletes the collection's tombstones written at or below `upTo`. Safe only once no event at or
   * below `upTo` can be applied to the collection again (every projection writing it has its
   * checkpoint there): the projector decides when. Returns how many went.
   */
  purgeTombstones(collection: string, upTo: number): Promise<number>;
  /** Removes every document of the collections and the named checkpoints, for a rebuild. */
  reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** What queries read: `get` and `find` wait until the collection includes the log head (read-your-writes). */
export const READ_STORE = Symbol('READ_STORE');

/** The adapter itself, for projection writers and internal readers that must never wait on the barrier. */
export const RAW_READ_STORE = Symbol('RAW_READ_STORE');
