import type { WorkerRole } from '../config/platform-config';
import type { AppendReply, AppendRequest } from '../event-store/parent-process-writer';
import type { MetricsJson } from '../metrics/metrics';
import type { TailStats } from './shared-tail';

/** A process manager as a worker reports it: whether this worker holds its lease, and how much it did. */
export interface ProcessManagerReport {
  readonly name: string;
  readonly holding: boolean;
  readonly handled: number;
}

/** What a worker (apps/worker) says about itself: in its own GET /health, and to npm start's API. */
export interface WorkerReport {
  readonly roles: readonly WorkerRole[];
  /** Where its projector is (null without the role), and its publisher. */
  readonly projected: number | null;
  readonly published: number | null;
  readonly process_managers: readonly ProcessManagerReport[];
  /** Its one read of the log's tail and the subscribers sharing it. */
  readonly tail: TailStats | null;
  /**
   * With the `audit` role: whether it holds the checkpoint writer's lease (one writer per
   * deployment), and why it stopped signing (a log that no longer gives its checkpoint), else null.
   */
  readonly audit: { readonly holding: boolean; readonly halted: string | null } | null;
  readonly rss_bytes: number;
}

/**
 * API → worker, over the IPC channel of npm start (apps/api/src/background/worker-supervisor.ts):
 * the API committed (read now), a status request, a metrics request (the API's /metrics includes
 * the worker's series), a heartbeat, an append's outcome.
 */
export type ToWorker =
  | { readonly type: 'appended' }
  | { readonly type: 'status'; readonly id: number }
  | { readonly type: 'metrics'; readonly id: number }
  | { readonly type: 'ping'; readonly id: number }
  | AppendReply;

/** Worker → API: started, projected a batch, a status, its metrics, a heartbeat's answer, an append to commit. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'projected' }
  | { readonly type: 'status'; readonly id: number; readonly report: WorkerReport }
  | { readonly type: 'metrics'; readonly id: number; readonly metrics: MetricsJson }
  | { readonly type: 'pong'; readonly id: number }
  | AppendRequest;

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
