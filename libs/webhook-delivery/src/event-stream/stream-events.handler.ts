import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '@app/platform/event-store/event-store.port';
import { PUBLIC_EVENTS } from '../mapping/public-events';
import { PublicEventFeed, type FeedScope } from './public-event-feed';
import { StreamEventsQuery, type EventStream, type EventStreamSink } from './stream-events.query';

const PAGE = 500;

/**
 * Reads the log through the event store port: a subscription from the start position when
 * following (every stream of the process shares the store's one tail read), pages up to the head
 * otherwise. Every event is looked at and only the caller's world's public events are handed on,
 * so a quiet organization's stream costs a scan of everyone's events, as the operator's event list
 * does (docs/decisions/infrastructure.md, "Dashboard and listen").
 */
@QueryHandler(StreamEventsQuery)
export class StreamEventsHandler implements IQueryHandler<StreamEventsQuery> {
  /** One feed per process: its folds are shared by every open stream. */
  private readonly feed: PublicEventFeed;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {
    this.feed = new PublicEventFeed(store, PUBLIC_EVENTS);
  }

  async execute({ actor, start, follow, sink }: StreamEventsQuery): Promise<EventStream> {
    const scope: FeedScope = { organizationId: actor.organizationId, mode: actor.mode };
    const after = start === 'head' ? await this.store.headPosition() : start.after;
    await sink.opened(after);
    const handle = (recorded: RecordedEvent) => this.handOn(recorded, scope, sink);
    return follow ? this.follow(after, handle) : this.catchUp(after, handle);
  }

  private async handOn(recorded: RecordedEvent, scope: FeedScope, sink: EventStreamSink): Promise<void> {
    const bodies = await this.feed.bodiesOf(recorded, scope);
    for (const [i, body] of bodies.entries()) await sink.event(body, recorded.position, i === bodies.length - 1);
    sink.progress(recorded.position);
  }

  private follow(after: number, handle: (recorded: RecordedEvent) => Promise<void>): EventStream {
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const ended = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const subscription: Subscription = this.store.subscribeToAll({ after, onError: (error) => settle.reject(error) }, handle);
    return {
      ended,
      stop: async () => {
        await subscription.stop();
        settle.resolve();
      },
    };
  }

  private catchUp(after: number, handle: (recorded: RecordedEvent) => Promise<void>): EventStream {
    let stopping = false;
    const ended = (async () => {
      const head = await this.store.headPosition();
      for (let position = after; position < head && !stopping;) {
        const page = await this.store.readAll({ after: position, limit: PAGE });
        if (!page.length) break;
        for (const recorded of page) {
          if (stopping || recorded.position > head) return;
          await handle(recorded);
          position = recorded.position;
        }
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
