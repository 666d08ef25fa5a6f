import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { traceparentOfEvent } from '../logging/trace-context';
import type { ReadStore } from '../read-store/read-store.port';
import { DOMAIN_EVENTS_TOPIC, type BusMessage, type MessageBus } from './message-bus.port';

export const PUBLISHER_CHECKPOINT = 'bus-publisher';

/**
 * At most this many events in one publish; the subscription waits while a full batch goes out, so
 * a backlog is read no faster than it is published.
 */
const BATCH_SIZE = 500;

/** `traceparent` (W3C): the trace of the request that caused the event, derived from its correlation id (logging/trace-context.ts). */
export function toBusMessage(event: RecordedEvent): BusMessage {
  return {
    key: event.streamId,
    value: JSON.stringify(event),
    headers: { 'event-type': event.type, 'event-id': event.id, traceparent: traceparentOfEvent(event) },
  };
}

/**
 * Forwards the global log to the bus from a checkpoint, keyed by stream id. At-least-once: the
 * checkpoint moves only after the bus acknowledged, so consumers must tolerate a repeat
 * (they dedupe on the event id).
 *
 * Batching without a window (issue 28): an event is published at the end of the event-loop turn
 * that read it, with every other event read in that turn; while a publish is in flight (one
 * durable write: an fsync on the embedded bus, a produce request on Kafka) the events that arrive
 * wait and go together in the next one. Idle, an event waits for nothing; under load the batches
 * grow with the backlog, as group commit does.
 */
export class BusPublisher {
  private subscription: Subscription | null = null;
  private pending: RecordedEvent[] = [];
  /** Whether a flush is asked for at the end of this turn (setImmediate), so one is not asked per event. */
  private soon = false;
  /** The flush queued behind the one in flight: it takes whatever is pending when its turn comes. */
  private next: Promise<void> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private published = 0;

  constructor(
    private readonly store: EventStore,
    private readonly bus: MessageBus,
    private readonly checkpoints: ReadStore,
    private readonly options: { topic?: string; onError?: (e: unknown) => void } = {},
  ) {}

  async start(): Promise<void> {
    this.published = await this.checkpoints.getCheckpoint(PUBLISHER_CHECKPOINT);
    this.subscription = this.store.subscribeToAll({ after: this.published, onError: this.options.onError }, async (event) => {
      this.pending.push(event);
      if (this.pending.length >= BATCH_SIZE) await this.flush();
      else this.flushSoon();
    });
  }

  /**
   * After the handlers of this turn: the subscription hands over a page of the log one event at a
   * time in microtasks, so the whole page is pending by then and goes in one publish.
   */
  private flushSoon(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      this.flush().catch(this.options.onError);
    });
  }

  private flush(): Promise<void> {
    this.next ??= this.chain.then(async () => {
      this.next = null;
      const batch = this.pending;
      this.pending = [];
      if (!batch.length) return;
      await this.bus.publish(this.options.topic ?? DOMAIN_EVENTS_TOPIC, batch.map(toBusMessage));
      const last = batch[batch.length - 1].position;
      await this.checkpoints.apply([], { [PUBLISHER_CHECKPOINT]: last });
      this.published = last;
    });
    this.chain = this.next;
    return this.next;
  }

  get lastPosition(): number {
    return this.published;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
    await this.flush();
  }
}
