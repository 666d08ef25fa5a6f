import type { CheckpointStore } from '../coordination/checkpoint-store.port';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { isEventProcessor, type BatchProcessor, type LogProcessor } from './log-processor';

export interface ReaderOptions {
  /** The name its checkpoint is stored under (default: the processor's). */
  readonly checkpointName?: string;
  /** The subscription or a batch failed: the reader stops there (its process is expected to restart). */
  readonly onError?: (error: unknown) => void;
  /** A coalesced checkpoint save failed: harmless (the next save carries it), reported. */
  readonly onCheckpointError?: (error: unknown) => void;
}

const DONE = Promise.resolve();

/**
 * The one runtime of every reader of the log (log-processor.ts): from its checkpoint, on the
 * process's shared tail (log-reader/shared-tail.ts, which wakes it when events arrive: no polling),
 * with the batching and the checkpoint policy the processor asks for. Leases, where a role needs
 * one (process managers), wrap it (leased-reader.ts).
 */
export class CheckpointedReader {
  private subscription: Subscription | null = null;
  private readonly checkpointName: string;
  /** Where the processor has got to: the last event of its last batch (or its safe position). */
  private position = 0;
  private saved = 0;
  // Batches: the events read and not handed over yet, the timer or turn that will close them, and
  // the hand-over queued behind the one in flight (it takes whatever is pending when its turn comes).
  private pending: RecordedEvent[] = [];
  private windowTimer: NodeJS.Timeout | null = null;
  private soon = false;
  private next: Promise<void> | null = null;
  private chain: Promise<void> = Promise.resolve();
  // Coalesced saves (event processors, and batch processors saved every `everyMs`).
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly processor: LogProcessor,
    private readonly options: ReaderOptions = {},
  ) {
    this.checkpointName = options.checkpointName ?? processor.name;
  }

  async start(): Promise<void> {
    const p = this.processor;
    const owned = !isEventProcessor(p) && p.checkpoint === 'owned';
    this.saved = this.position = owned
      ? await p.resumeAfter!()
      : await this.checkpoints.getCheckpoint(this.checkpointName);
    // One closure per reader, none per event: the hot path is the processor's own.
    const handler = isEventProcessor(p)
      ? (event: RecordedEvent) => p.handleEvent(event, this.progressed)
      : (event: RecordedEvent) => this.add(p, event);
    this.subscription = this.store.subscribeToAll({ after: this.position, onError: this.options.onError }, handler);
  }

  /** The last event whose work is done (batch processors), or the processor's safe position (never before where it started). */
  get lastPosition(): number {
    return isEventProcessor(this.processor) ? Math.max(this.position, this.processor.safePosition()) : this.position;
  }

  private add(p: BatchProcessor, event: RecordedEvent): Promise<void> {
    this.pending.push(event);
    if (this.pending.length >= p.batch.maxEvents) return this.flush();
    if (p.batch.window === 'turn') this.closeAtEndOfTurn();
    else this.windowTimer ??= setTimeout(this.closeWindow, p.batch.window());
    return DONE;
  }

  /**
   * After the handlers of this turn: the subscription hands over a page of the log one event at a
   * time in microtasks, so the whole page is pending by then and goes in one batch.
   */
  private closeAtEndOfTurn(): void {
    if (this.soon) return;
    this.soon = true;
    setImmediate(() => {
      this.soon = false;
      this.flush().catch(this.options.onError);
    });
  }

  private readonly closeWindow = () => void this.flush().catch(this.options.onError);

  /** Hands the pending events over as one batch, after the one in flight: checkpoints only move forward. */
  flush(): Promise<void> {
    if (this.windowTimer) clearTimeout(this.windowTimer);
    this.windowTimer = null;
    this.next ??= this.chain.then(async () => {
      this.next = null;
      const batch = this.pending;
      this.pending = [];
      if (!batch.length) return;
      const p = this.processor as BatchProcessor;
      await p.handleBatch(batch);
      this.position = batch[batch.length - 1].position;
      if (p.checkpoint !== 'owned') this.progressed();
    });
    this.chain = this.next;
    return this.next;
  }

  /** Where a coalesced save stores: an event processor's safe position, a batch processor's last batch. */
  private savable(): number {
    const p = this.processor;
    return isEventProcessor(p) ? p.safePosition() : this.position;
  }

  /** The savable position may have moved: save it, at most once per the processor's interval. */
  private readonly progressed = (): void => {
    const { checkpoint } = this.processor as { checkpoint: { everyMs: number } };
    if (this.saveTimer || this.savable() <= this.saved) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save().catch((error) => this.options.onCheckpointError?.(error));
    }, checkpoint.everyMs);
  };

  private save(): Promise<void> {
    this.saving = this.saving
      .catch(() => undefined)
      .then(async () => {
        const position = this.savable();
        if (position <= this.saved) return;
        await this.checkpoints.saveCheckpoint(this.checkpointName, position);
        this.saved = position;
      });
    return this.saving;
  }

  /** Stops reading, lets the processor finish (or abort) its work, and stores how far it got. */
  async stop(): Promise<void> {
    const p = this.processor;
    if (!isEventProcessor(p)) {
      await this.subscription?.stop();
      this.subscription = null;
      await this.flush();
      if (p.checkpoint === 'owned') return;
      if (this.saveTimer) clearTimeout(this.saveTimer);
      this.saveTimer = null;
      return this.save();
    }
    // Aborted first: a subscription waiting for a free slot is woken, so it can stop.
    p.abort?.();
    await this.subscription?.stop();
    this.subscription = null;
    await p.settled?.();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }
}
