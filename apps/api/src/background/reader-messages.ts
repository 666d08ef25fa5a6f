import type { RunnerStatus } from '@app/application/process-managers';
import type { AppendReply, AppendRequest } from '@app/platform/event-store/parent-process-writer';

/** What the readers process reports about itself, for the API's GET /health. */
export interface ReadersReport {
  readonly projected: number;
  readonly published: number;
  readonly process_managers: readonly RunnerStatus[];
}

/** API → readers process. */
export type ToReaders = { readonly type: 'appended' } | { readonly type: 'status'; readonly id: number } | AppendReply;

/** Readers process → API. */
export type FromReaders = { readonly type: 'ready' } | { readonly type: 'projected' } | { readonly type: 'status'; readonly id: number; readonly report: ReadersReport } | AppendRequest;

/**
 * Sends at most one message per turn of the event loop: a burst of commits (or projector batches)
 * is one wake-up for the other side, which then reads everything new anyway.
 */
export function coalesced(send: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      send();
    });
  };
}
