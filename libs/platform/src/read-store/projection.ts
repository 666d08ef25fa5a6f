import type { RecordedEvent } from '../event-store/event-store.port';
import type { ReadDocument } from './read-store.port';

/** A document of the projection's collection as the batch being planned has left it (null: none). */
export type PlanRead = (id: string) => Promise<ReadDocument | null>;

/** One document a planned projection sets for an event: the new body, or null to delete it. */
export interface PlannedWrite {
  readonly id: string;
  readonly doc: ReadDocument | null;
}

/**
 * A read model: which events it reads, which document each one touches, and a pure evolve.
 * `evolve` returns the new document, `null` to delete it, or `current` unchanged to skip.
 */
export interface Projection<D extends ReadDocument = ReadDocument> {
  readonly name: string;
  readonly collection: string;
  readonly handles: readonly string[];
  /**
   * Raised when documents gain something older events must fill in (e.g. `mode`): the projector
   * then empties the collection and replays the log into it once. Absent: 0.
   */
  readonly version?: number;
  /**
   * Every filter combination the collection's list queries use, as field lists (equality fields,
   * then the range field if any); the document id (descending) is appended by the adapters. Created
   * at startup by every adapter (see read-index.ts); `test/performance/list-query-plans` proves no
   * list query scans the collection.
   */
  readonly indexes?: readonly (readonly string[])[];
  documentIds(event: RecordedEvent): readonly string[];
  evolve(current: D | null, event: RecordedEvent): D | null;
  /**
   * For a read model whose documents an event touches depend on other documents (the ledger: a
   * settlement posts the lines its hold left pending, on accounts the event does not name): the
   * documents one event sets, read through `read`. Present, it replaces `documentIds` and `evolve`.
   * The writes are position-guarded like any other, so a replayed event changes nothing.
   */
  plan?(event: RecordedEvent, read: PlanRead): Promise<readonly PlannedWrite[]>;
}

export const PROJECTIONS = Symbol('PROJECTIONS');
