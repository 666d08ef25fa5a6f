/** The one source of truth. Adapters: SQLite (embedded default) and EventStoreDB. */
import type { Mode } from './event-mode';
import type { StreamFolds } from '../folds/stream-folds';

export interface EventMetadata {
  /** ULID of the event; also the store's event id. */
  readonly event_id: string;
  readonly organization_id: string;
  readonly entity_id?: string | null;
  readonly correlation_id: string;
  readonly causation_id: string;
  readonly schema_version: number;
  /** ms since epoch when the fact happened. */
  readonly occurred_at: number;
  /** Who caused it: an API key, an entity token, a process manager, or `operator`. */
  readonly actor?: string;
  /** The world the event belongs to; absent on events older than modes: read it with `modeOf`. */
  readonly mode?: Mode;
}

export interface EventToAppend {
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Data = Record<string, unknown>> {
  readonly id: string;
  readonly streamId: string;
  readonly type: string;
  readonly data: Data;
  readonly metadata: EventMetadata;
  /** 0-based position of the event in its stream. */
  readonly revision: number;
  /** Position in the global log: increasing, not necessarily contiguous (EventStoreDB commit positions). */
  readonly position: number;
}

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: the revision of its last event. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event written; pass it as the next expected revision. */
  readonly nextExpectedRevision: number;
  readonly position: number;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this global position; omit to start at the beginning. */
  readonly after?: number;
  /** Called when the handler throws; the subscription stops after it. */
  readonly onError?: (error: unknown) => void;
}

export interface ReadStreamOptions {
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

export interface EventStore {
  append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Events of a stream in order, from `fromRevision` (default 0) on; an empty array when the
   * stream does not exist or has nothing from there. Streams only grow, so a reader that folded up
   * to revision n reads on from n + 1. `maxCount`: at most that many (a page of a long stream).
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of the global log strictly after `after`, in order. */
  readAll(options?: { after?: number; limit?: number }): Promise<RecordedEvent[]>;
  /** Catch up from `after`, then follow live appends. The handler runs for one event at a time. */
  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription;
  /** Position of the last event in the global log, or 0 when empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
  /** This process's fold cache, command queues and snapshots, on the store the composition root made (folds/stream-folds.ts); absent on a bare adapter. */
  readonly folds?: StreamFolds;
}

/** The single conflict type command handlers retry on. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/** True when `actual` (the last revision, or -1 for no stream) satisfies `expected`. */
export function revisionMatches(expected: ExpectedRevision, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  if (expected === 'stream_exists') return actual >= 0;
  return expected === actual;
}
