import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import { CheckpointedReader } from '../log-processing/checkpointed-reader';
import type { BatchProcessor } from '../log-processing/log-processor';
import { readStoreCheckpoints } from '../log-processing/read-store-checkpoints';
import { traceparentOfEvent } from '../logging/trace-context';
import type { ReadStore } from '../read-store/read-store.port';
import { DOMAIN_EVENTS_TOPIC, type BusMessage, type MessageBus } from './message-bus.port';

export const PUBLISHER_CHECKPOINT = 'bus-publisher';

/** At most this many events in one publish (the runtime holds the subscription while a full batch goes out). */
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
 * Forwards the global log to the bus from a checkpoint, keyed by stream id: a batch processor of
 * the log-processing runtime. At-least-once: the runtime moves the checkpoint (in the read store)
 * only after the bus acknowledged, and at most every 250 ms, so consumers must tolerate a repeat
 * (they dedupe on the event id).
 *
 * Batching without a window (issue 28): an event is published at the end of the event-loop turn
 * that read it, with every other event read in that turn; while a publish is in flight (one
 * durable write: an fsync on the embedded bus, a produce request on Kafka) the events that arrive
 * wait and go together in the next one. Idle, an event waits for nothing; under load the batches
 * grow with the backlog, as group commit does.
 */
export class BusPublisher implements BatchProcessor {
  readonly name = PUBLISHER_CHECKPOINT;
  readonly batch = { maxEvents: BATCH_SIZE, window: 'turn' } as const;
  // Saved at most four times a second: a restart publishes the last quarter second again (consumers dedupe).
  readonly checkpoint = { everyMs: 250 };
  private readonly reader: CheckpointedReader;

  constructor(
    store: EventStore,
    private readonly bus: MessageBus,
    checkpoints: ReadStore,
    private readonly options: { topic?: string; onError?: (e: unknown) => void } = {},
  ) {
    this.reader = new CheckpointedReader(store, readStoreCheckpoints(checkpoints), this, { onError: options.onError });
  }

  start(): Promise<void> {
    return this.reader.start();
  }

  handleBatch(batch: RecordedEvent[]): Promise<void> {
    return this.bus.publish(this.options.topic ?? DOMAIN_EVENTS_TOPIC, batch.map(toBusMessage));
  }

  get lastPosition(): number {
    return this.reader.lastPosition;
  }

  stop(): Promise<void> {
    return this.reader.stop();
  }
}
