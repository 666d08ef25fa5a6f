import type { CheckpointStore } from '@app/platform/coordination/checkpoint-store.port';
import type { EventStore, RecordedEvent, Subscription } from '@app/platform/event-store/event-store.port';
import type { ProcessManager, WorkOptions } from './process-manager';
import { sleep } from './sleep';

/**
 * One process manager at work from its checkpoint, for as long as this process holds its lease.
 * Events are worked on concurrently (a delayed step must not hold up the next one), but the
 * checkpoint only moves past an event once its work is finished: it stays just before the oldest
 * unfinished event. Whoever works next resumes there, so scheduled work is never lost; finished
 * work seen again is re-run, which idempotent handlers turn into no-ops.
 */
export class CheckpointedWork {
  private subscription: Subscription | null = null;
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Events waiting for a free slot, woken when a step ends or the work stops. */
  private readonly waitingForSlot: Array<() => void> = [];
  private readonly abort = new AbortController();
  private lastSeen = 0;
  private saved = 0;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;
  /** Events whose work finished here: what an operator reads to see which replica works. */
  handled = 0;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly checkpointName: string,
    private readonly manager: ProcessManager,
    private readonly options: WorkOptions = {},
  ) {}

  async start(): Promise<void> {
    this.saved = this.lastSeen = await this.checkpoints.getCheckpoint(this.checkpointName);
    this.subscription = this.store.subscribeToAll({ after: this.saved }, (event) => this.onEvent(event));
  }

  /** Where the next holder would resume: before the oldest unfinished event, or after the last one seen. */
  get checkpoint(): number {
    // Work is added in log order and a Map keeps insertion order, so the first key is the oldest.
    const oldest = this.inFlight.keys().next();
    return oldest.done ? this.lastSeen : oldest.value - 1;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  private async onEvent(event: RecordedEvent): Promise<void> {
    if (this.manager.handles.includes(event.type) && !this.inFlight.has(event.position)) {
      while (this.inFlight.size >= (this.options.concurrency ?? 100)) {
        if (this.abort.signal.aborted) return;
        // Not Promise.race over the steps in flight: a race leaves a reaction on every one of them until
        // it settles, so a saturated manager whose steps sleep piled up events × slots of them (62 MB
        // for 1,000 steps in a heap snapshot at the worker's heap limit).
        await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
      }
      const work = this.work(event).then((finished) => {
        // Unfinished work (stopped midway) stays in flight, so the checkpoint stays before it.
        if (finished) {
          this.inFlight.delete(event.position);
          this.handled++;
        }
        this.wakeWaiting();
        this.scheduleSave();
      });
      this.inFlight.set(event.position, work);
    }
    this.lastSeen = Math.max(this.lastSeen, event.position);
    this.scheduleSave();
  }

  /** Retries with backoff until the work succeeds (true) or the work stops (false). */
  private async work(event: RecordedEvent): Promise<boolean> {
    let delay = this.options.retryDelayMs ?? 200;
    while (!this.abort.signal.aborted) {
      try {
        await this.manager.handle(event, this.abort.signal);
        return !this.abort.signal.aborted;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        this.options.onError?.(error, event);
        await sleep(delay, this.abort.signal).catch(() => undefined);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 30_000);
      }
    }
    return false;
  }

  /** Each waiting event looks again (the subscription hands on one event at a time: at most one waits). */
  private wakeWaiting(): void {
    for (const wake of this.waitingForSlot.splice(0)) wake();
  }

  /**
   * Checkpoint writes are coalesced: losing the last few is harmless, they are only re-run. Every
   * 250 ms: each is a commit of its own on the read store's file, and with ten managers saving
   * every 50 ms they were 2.7% of the worker's CPU under transfer load (issue 28); a crash re-runs
   * at most a quarter of a second of events, which the deciders recognize.
   */
  private scheduleSave(): void {
    if (this.saveTimer || this.checkpoint <= this.saved) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save().catch((error) => this.options.onCoordinationError?.(error));
    }, 250);
  }

  private save(): Promise<void> {
    this.saving = this.saving
      .catch(() => undefined)
      .then(async () => {
        const position = this.checkpoint;
        if (position <= this.saved) return;
        await this.checkpoints.saveCheckpoint(this.checkpointName, position);
        this.saved = position;
      });
    return this.saving;
  }

  /** Aborts unfinished work, then saves how far finished work goes. */
  async stop(): Promise<void> {
    this.abort.abort();
    this.wakeWaiting();
    await this.subscription?.stop();
    this.subscription = null;
    await Promise.all(this.inFlight.values());
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }
}
