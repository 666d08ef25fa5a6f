import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { traceparentOfEvent } from '../logging/trace-context';
import type { ReadStore } from '../read-store/read-store.port';
import { DOMAIN_EVENTS_TOPIC, type BusMessage, type MessageBus } from './message-bus.port';

export const PUBLISHER_CHECKPOINT = 'bus-publisher';

/**
 * A batch closes when full or after this window: each publish is a durable write (an fsync on the
 * embedded bus, a produce request on Kafka), and under load a 2 ms window meant hundreds a second.
 * 20 ms is invisible next to webhook retry schedules.
 */
const BATCH_WINDOW_MS = 20;
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
 */
export class BusPublisher {
  private subscription: Subscription | null = null;
  private pending: RecordedEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
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
      else if (!this.timer) this.timer = setTimeout(() => void this.flush().catch(this.options.onError), BATCH_WINDOW_MS);
    });
  }

  private flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.chain = this.chain.then(async () => {
      const batch = this.pending;
      this.pending = [];
      if (!batch.length) return;
      await this.bus.publish(this.options.topic ?? DOMAIN_EVENTS_TOPIC, batch.map(toBusMessage));
      const last = batch[batch.length - 1].position;
      await this.checkpoints.apply([], { [PUBLISHER_CHECKPOINT]: last });
      this.published = last;
    });
    return this.chain;
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
