import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '@app/platform/event-store/event-store.port';
import { PUBLIC_EVENTS } from '../mapping/public-events';
import { nextTurn } from './loop-turns';
import { PublicEventFeed, type FeedScope } from './public-event-feed';
import { StreamEventsQuery, type EventStream, type EventStreamSink, type StreamedEvent } from './stream-events.query';

/**
 * Log events read at a time when catching up: about a slice of work, so a page is read and handed
 * on within one turn (below) and is garbage before the stream's next turn. With 500, ten streams
 * kept pages alive across each other's turns, V8 promoted them to the old space, and its
 * collections (84 in a minute, up to 0.2 s) paused every other request.
 */
const PAGE = 100;
/**
 * A stream hands the event loop back after this many ms of its own work (loop-turns.ts), so no
 * request waits behind it for longer. With ten whole-history streams of 250,000 events at once, 5 ms
 * left another organization's GET /accounts/{id} at p99 174 ms on a loaded machine, 2 ms at 90 ms.
 */
const SLICE_MS = 2;

/**
 * Reads the log through the event store port: a subscription from the start position when
 * following (every stream of the process shares the store's one tail read), pages up to the head
 * otherwise. Every event is looked at and only the caller's world's public events are handed on,
 * so a quiet organization's stream costs a scan of everyone's events, as the operator's event list
 * does (docs/decisions/infrastructure.md, "Dashboard and listen"). Each stream has its own feed
 * (public-event-feed.ts): an event's body costs one `evolve` of its resource, whatever its history.
 */
@QueryHandler(StreamEventsQuery)
export class StreamEventsHandler implements IQueryHandler<StreamEventsQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, start, follow, sink }: StreamEventsQuery): Promise<EventStream> {
    const scope: FeedScope = { organizationId: actor.organizationId, mode: actor.mode };
    const after = start === 'head' ? await this.store.headPosition() : start.after;
    await sink.opened(after);
    const reader = new StreamReader(new PublicEventFeed(this.store, PUBLIC_EVENTS), scope, sink);
    return follow ? this.follow(after, reader) : this.catchUp(after, reader);
  }

  private follow(after: number, reader: StreamReader): EventStream {
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const ended = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const stop = async () => {
      await subscription.stop();
      settle.resolve();
    };
    const subscription: Subscription = this.store.subscribeToAll(
      { after, onError: (error) => settle.reject(error) },
      async (recorded) => {
        if (!(await reader.handOn([recorded]))) void stop();
      },
    );
    return { ended, stop };
  }

  /** One page of the log at a time, its public events handed on together, the loop yielded between pages. */
  private catchUp(after: number, reader: StreamReader): EventStream {
    let stopping = false;
    const ended = (async () => {
      const head = await this.store.headPosition();
      for (let position = after; position < head && !stopping;) {
        await reader.pause();
        const page = (await this.store.readAll({ after: position, limit: PAGE })).filter((e) => e.position <= head);
        if (!page.length || !(await reader.handOn(page))) return;
        position = page[page.length - 1].position;
      }
    })();
    return {
      ended,
      stop: async () => {
        stopping = true;
        await ended.catch(() => undefined);
      },
    };
  }
}

/**
 * Turns log events into the sink's batches, handing the event loop on every SLICE_MS of work (a
 * duration this process measures of itself: performance.now(), not the clock).
 */
class StreamReader {
  private sliceStarted = performance.now();

  constructor(
    private readonly feed: PublicEventFeed,
    private readonly scope: FeedScope,
    private readonly sink: EventStreamSink,
  ) {}

  /** Hands the event loop on when this stream's slice is spent (before a page, so the page is read and handed on in one turn). */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < SLICE_MS) return;
    await nextTurn();
    this.sliceStarted = performance.now();
  }

  /** False when the sink refused the batch (the stream must stop). */
  async handOn(events: readonly RecordedEvent[]): Promise<boolean> {
    let batch: StreamedEvent[] = [];
    for (const recorded of events) {
      const bodies = await this.feed.bodiesOf(recorded, this.scope);
      for (const [i, body] of bodies.entries())
        batch.push({ body, position: recorded.position, last: i === bodies.length - 1 });
      if (performance.now() - this.sliceStarted < SLICE_MS) continue;
      if (batch.length && !(await this.sink.events(batch))) return false;
      this.sink.progress(recorded.position);
      batch = [];
      await nextTurn();
      this.sliceStarted = performance.now();
    }
    if (batch.length && !(await this.sink.events(batch))) return false;
    if (events.length) this.sink.progress(events[events.length - 1].position);
    return true;
  }
}
