import type { Mode } from '../event-store/event-mode';

/**
 * The delivery store, a port of the webhook app (../shared/design/architecture.md): due deliveries,
 * claims, attempts and their immutable logs. Operational state, not history: none of it enters the
 * event log, which keeps webhook configuration only (docs/decisions/webhooks.md, "Delivery store").
 *
 * A delivery is one public event to one webhook. It is `pending` until an attempt answers 2xx
 * (`succeeded`), the retry schedule runs out (`failed`) or its webhook may no longer receive it
 * (`cancelled`). Deliveries to one webhook about one resource form a queue ordered by the event's
 * place in the log; only the queue's head may be attempted (decisions §9). A finished head keeps
 * its turn until it is handed off, so a worker that dies in between leaves it due again after
 * `HANDOFF_GRACE_MS`, and the next look hands it off. Every adapter decides a claim atomically, so
 * of any number of workers, across processes, one makes each attempt.
 */
export const DELIVERY_STORE = Symbol('DELIVERY_STORE');

/**
 * `due_at` of a paused delivery (its webhook is inactive, decisions §15): never due by time, made
 * due again by `resume` when the webhook is set active. Kept, not dropped.
 */
export const PAUSED = Number.MAX_SAFE_INTEGER;

/** A finished head is due again this long after it finished, in case its worker died before handing off. */
export const HANDOFF_GRACE_MS = 10_000;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
export type CancelReason = 'webhook_deleted' | 'webhook_inactive' | 'webhook_unsubscribed';

/** Where a delivery waits: behind earlier deliveries to its webhook about the same resource (a stream id). */
export interface QueuePlace {
  readonly resource: string;
  /** The domain event's global log position, then its rank among the public events it fires. */
  readonly position: number;
  readonly seq: number;
}

export interface NewDelivery {
  /** `whd_…`, derived from the public event and the webhook, so routing an event twice schedules once. */
  readonly id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly event: string;
  readonly test: boolean;
  /** The exact bytes every attempt sends. */
  readonly payload: string;
  /** Null: waits on nothing (tests, deliveries from before queues existed). */
  readonly queue: QueuePlace | null;
  /**
   * The W3C trace id of the request that caused the event (derived from its correlation id,
   * logging/trace-context.ts): each attempt sends it as `traceparent`. Absent on deliveries
   * scheduled before traces were carried.
   */
  readonly trace_id?: string;
  readonly scheduled: number;
  readonly due_at: number;
}

export interface Delivery extends NewDelivery {
  readonly status: DeliveryStatus;
  /** Attempts claimed so far; a claim makes attempt `attempts + 1`. */
  readonly attempts: number;
  /** Whether it may be attempted (or, finished, must still hand its queue on). */
  readonly head: boolean;
  readonly finished_at: number | null;
  readonly cancel_reason: CancelReason | null;
  /**
   * A resend (decisions §15) is a delivery of its own: the original's id here, no queue, one
   * attempt and no retry. Absent on ordinary deliveries.
   */
  readonly resend_of?: string;
  /**
   * Attempts made before a resend or a recovery reopened the numbering: the retry schedule counts
   * from here (entry `attempts - retry_base`), so a recovered delivery gets the usual retries and
   * its log entries go on with the next numbers. Absent (0) otherwise.
   */
  readonly retry_base?: number;
}

/** One attempt as sent and as answered: the immutable log entry of decisions §9, stored once. */
export interface AttemptLog {
  /** `whl_…` */
  readonly id: string;
  readonly delivery_id: string;
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly event: string;
  readonly url: string;
  readonly attempt: number;
  readonly status: 'succeeded' | 'failed';
  /** Headers with signature and authorization values already reading `***`. */
  readonly request: {
    readonly method: 'POST';
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
  readonly query_params: Readonly<Record<string, string>>;
  /** Null when no response came (network error, timeout, refused destination). */
  readonly response: {
    readonly status_code: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  } | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly created: number;
  readonly sent_at: number;
  readonly completed_at: number;
}

export interface AttemptOutcome {
  readonly log: AttemptLog;
  /** When a failed attempt is retried (the retry schedule), null when none is left; unused on success. */
  readonly next_attempt_at: number | null;
}

export interface AttemptLogFilter {
  readonly organization_id: string;
  readonly mode: Mode;
  readonly entity_id: string;
  readonly webhook_id?: string;
  readonly event?: string;
  readonly status?: 'succeeded' | 'failed';
}

export interface AttemptLogPage {
  /** Newest (highest id) first. */
  readonly items: AttemptLog[];
  readonly hasMore: boolean;
}

/** Counted per attempt logged (decisions §9 webhook `stats`). */
export interface DeliveryStats {
  readonly deliveries_total: number;
  readonly deliveries_succeeded: number;
  readonly deliveries_failed: number;
  /** Completion time of the latest attempt, and its status code (null after a network error). */
  readonly last_delivery_at: number | null;
  readonly last_response_status: number | null;
  /**
   * Null when the latest attempt succeeded (or none was made); else the webhook's last success, or
   * its first failure if it never succeeded: what automatic disabling measures from (decisions §15).
   */
  readonly failing_since: number | null;
}

export const NO_DELIVERY_STATS: DeliveryStats = {
  deliveries_total: 0,
  deliveries_succeeded: 0,
  deliveries_failed: 0,
  last_delivery_at: null,
  last_response_status: null,
  failing_since: null,
};

/** What `resend` answers: the new delivery, or why there is none. */
export type ResendOutcome = { readonly resend: Delivery } | { readonly refused: 'unknown' | 'pending' };

export interface DeliveryStore {
  /**
   * Stores a new delivery (false, changing nothing, when its id is stored already), then makes the
   * first pending delivery of its queue the head: written first and handed on after, so a head
   * finishing at the same moment can never leave the queue without one.
   */
  schedule(delivery: NewDelivery): Promise<boolean>;
  /**
   * `schedule` for each, in order, as one durable write where the adapter can (SQLite: one
   * transaction and one fsync for all); returns how many were new. What a bus batch routes.
   */
  scheduleMany(deliveries: readonly NewDelivery[]): Promise<number>;
  /** Heads due at `now` (pending ones, and finished ones still to hand off), the longest due first. */
  due(now: number, limit: number): Promise<string[]>;
  get(id: string): Promise<Delivery | null>;
  /**
   * Claims the next attempt of a pending head due at `now`: `attempts` goes up by one and the
   * delivery is not due again before `now + leaseMs` (a worker that dies leaves it to run out).
   * Null when it is not due, not the head, finished, or another worker claimed it first.
   */
  claim(id: string, now: number, leaseMs: number): Promise<Delivery | null>;
  /**
   * Logs an attempt once (a second record of the same attempt changes nothing) and moves the
   * delivery: a 2xx finishes it whichever attempt brought it; a failure of the attempt in flight
   * makes it due at `next_attempt_at`, or `failed` when that is null; a late attempt whose lease
   * had run out is only logged. Returns the delivery after it, null for an unknown delivery.
   */
  record(outcome: AttemptOutcome): Promise<Delivery | null>;
  /** Cancels a pending delivery (in flight or not); false when it had finished already. */
  cancel(id: string, reason: CancelReason, now: number): Promise<boolean>;
  /** Ends a finished head's turn: the first pending delivery of its queue becomes the head, and is returned. */
  handOff(id: string): Promise<string | null>;
  /** Parks a pending delivery whose webhook is inactive (due at `PAUSED`); false when it is not pending. */
  pause(id: string): Promise<boolean>;
  /** Makes a webhook's paused deliveries due at `now`, when it is active again; returns how many. */
  resume(webhookId: string, now: number): Promise<number>;
  /**
   * Decisions §15: a new delivery `resendId` of a finished delivery, due at `now`, with the same
   * payload and event id, no queue and no retry, numbered after every attempt so far of the
   * original and its resends. Refused while the original is still pending (its retries are running).
   */
  resend(id: string, resendId: string, now: number): Promise<ResendOutcome>;
  /**
   * Decisions §15: every delivery to the webhook scheduled in [since, until) whose latest attempt
   * (its own, or its latest resend's) failed goes back to pending, due at `now`, in its queue's
   * order, with the retry schedule counted afresh and its numbering after every attempt so far.
   * Returns how many.
   */
  recover(webhookId: string, since: number, until: number, now: number): Promise<number>;
  /** GET /webhook-logs: newest first, `before` an id (style A cursor). */
  logs(filter: AttemptLogFilter, page: { readonly limit: number; readonly before?: string }): Promise<AttemptLogPage>;
  /** Per webhook; webhooks with no attempt are absent. */
  stats(webhookIds: readonly string[]): Promise<ReadonlyMap<string, DeliveryStats>>;

  /** One-time migrations (the import of delivery events from older logs): a value once done. */
  marker(name: string): Promise<string | null>;
  setMarker(name: string, value: string): Promise<void>;
  /** The import's writes: a delivery as it stood when the old code left it, stored unless present. */
  restore(delivery: Delivery): Promise<boolean>;
  /** The import's writes: an attempt the old code logged, stored (and counted) unless present. */
  restoreAttempt(log: AttemptLog): Promise<boolean>;
  close(): Promise<void>;
}
