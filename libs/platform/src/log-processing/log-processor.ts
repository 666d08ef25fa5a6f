import type { RecordedEvent } from '../event-store/event-store.port';

/**
 * A reader of the global log, as the runtime (CheckpointedReader) runs it: the projector, the bus
 * publisher and each process manager are one. The runtime reads from the processor's checkpoint,
 * hands it events in log order, and moves the checkpoint as its policy says; the processor only
 * does its work. Two shapes, as emmett's projections (a batch) and its reactors (an event):
 */
export type LogProcessor = BatchProcessor | EventProcessor;

/** Takes events in batches: one commit of its writes per batch (the projector, the publisher). */
export interface BatchProcessor {
  readonly name: string;
  readonly batch: BatchPolicy;
  /**
   * `owned`: kept in its own storage, with its writes. `everyMs`: saved by the runtime once a batch
   * is handled, at most once per interval and once more when it stops: a restart may hand it the
   * events of the last interval again (at-least-once; the bus publisher's consumers dedupe on the
   * event id), and a batch costs no write of its own (issue 28).
   */
  readonly checkpoint: 'owned' | { readonly everyMs: number };
  /** Where it resumes when its checkpoint is `owned` (kept in its own storage, with its writes). */
  resumeAfter?(): Promise<number>;
  handleBatch(events: RecordedEvent[]): Promise<void>;
}

/**
 * Takes each event as it is read (process managers: a step must not wait for a batch). Resolving
 * late holds the subscription: that is its backpressure. Its checkpoint is saved by the runtime,
 * coalesced, at the position it says is safe (before its oldest unfinished work).
 */
export interface EventProcessor {
  readonly name: string;
  readonly checkpoint: { readonly everyMs: number };
  /** `progressed`: call it when the safe position may have moved (the runtime then schedules a save). */
  handleEvent(event: RecordedEvent, progressed: () => void): Promise<void>;
  /** The position a new reader would resume after: at most the last event handed to it. */
  safePosition(): number;
  /** The reader is stopping: abort unfinished work (called before its subscription stops). */
  abort?(): void;
  /** Resolves once aborted work has settled; the last checkpoint is saved after it. */
  settled?(): Promise<void>;
}

/**
 * When a batch that is not full is handed over. A full one (`maxEvents`) goes at once, and the
 * subscription waits while it is handled, so a backlog is read no faster than it is processed.
 */
export interface BatchPolicy {
  readonly maxEvents: number;
  /**
   * `'turn'`: at the end of the event-loop turn that read its first event (setImmediate), with
   * every other event read in that turn: no window, batches grow only while one is in flight.
   * A function: that many milliseconds after its first event (a timer).
   */
  readonly window: 'turn' | (() => number);
}

export const isEventProcessor = (p: LogProcessor): p is EventProcessor => 'handleEvent' in p;
