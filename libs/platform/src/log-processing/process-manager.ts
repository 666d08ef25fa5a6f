import type { RecordedEvent } from '../event-store/event-store.port';

/**
 * Work that follows from events: a review after a submission, a transfer's next step. `handle`
 * must be idempotent (every event can arrive more than once) and should honour `signal`, which
 * aborts on shutdown or when this process loses the manager's lease; work that throws or is
 * aborted is not done and will run again, here or in the replica that takes over.
 */
export interface ProcessManager {
  readonly name: string;
  readonly handles: readonly string[];
  handle(event: RecordedEvent, signal: AbortSignal): Promise<void>;
}

export interface WorkOptions {
  /** At most this many events are worked on at once; the subscription waits beyond it. */
  readonly concurrency?: number;
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  readonly onError?: (error: unknown, event: RecordedEvent) => void;
  /** The lease or checkpoint store failed; the runner tries again at its next interval or save. */
  readonly onCoordinationError?: (error: unknown) => void;
}
