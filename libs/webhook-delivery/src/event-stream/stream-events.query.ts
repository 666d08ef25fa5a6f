import { Query } from '@nestjs/cqrs';
import type { Actor } from '@app/application/command-handling';
import type { DeliveryBody } from './public-event-feed';

/** Where a stream starts: strictly after a log position, or at the head of the log when it opens. */
export type StreamStart = { readonly after: number } | 'head';

/** One public event handed on; `last` when it is the last one its domain event fires, so `position` may be given to a client to resume from. */
export interface StreamedEvent {
  readonly body: DeliveryBody;
  readonly position: number;
  readonly last: boolean;
}

/**
 * Where the events of a stream go. The stream waits on each call, so a slow client slows its own
 * stream (and, past the shared tail's queue, reads on its own) instead of buffering without end.
 */
export interface EventStreamSink {
  /** First, once: the position the stream delivers strictly after. */
  opened(after: number): Promise<void>;
  /**
   * The public events of one or more domain events, in log order (a client resuming from a
   * `last` one's position has everything of its domain event). False: the stream may send
   * nothing more (its key was revoked or rotated) and stops.
   */
  events(batch: readonly StreamedEvent[]): Promise<boolean>;
  /** Everything of the log up to `position` has been handed on (the caller's events) or skipped (anyone else's). */
  progress(position: number): void;
}

export interface EventStream {
  /** Resolves when the stream ended: stopped, caught up when not following, or failed (then it rejects). */
  readonly ended: Promise<void>;
  stop(): Promise<void>;
}

/**
 * `GET /events/stream`: the public events (the webhook delivery bodies of decisions §9) of the
 * actor's organization and mode, in log order, from `start`; with `follow`, as they are appended,
 * until stopped; without, up to the head of the log when it opened.
 */
export class StreamEventsQuery extends Query<EventStream> {
  constructor(
    readonly actor: Actor,
    readonly start: StreamStart,
    readonly follow: boolean,
    readonly sink: EventStreamSink,
  ) {
    super();
  }
}
