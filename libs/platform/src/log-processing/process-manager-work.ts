import type { RecordedEvent } from '../event-store/event-store.port';
import type { EventProcessor } from './log-processor';
import type { ProcessManager, WorkOptions } from './process-manager';
import { sleep } from '../clock';

/**
 * Checkpoint writes are coalesced: losing the last few is harmless, they are only re-run. Every
 * 250 ms: each is a commit of its own on the coordination store's file, and with ten managers
 * saving every 50 ms they were 2.7% of the worker's CPU under transfer load (issue 28); a crash
 * re-runs at most a quarter of a second of events, which the deciders recognize.
 */
const SAVE_EVERY_MS = 250;

/**
 * One process manager as a processor of the log (CheckpointedReader runs it, under its lease).
 * Events are worked on concurrently (a delayed step must not hold up the next one), but the safe
 * position only moves past an event once its work is finished: it stays just before the oldest
 * unfinished event. Whoever works next resumes there, so scheduled work is never lost; finished
 * work seen again is re-run, which idempotent handlers turn into no-ops.
 */
export class ProcessManagerWork implements EventProcessor {
  readonly checkpoint = { everyMs: SAVE_EVERY_MS };
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Events waiting for a free slot, woken when a step ends or the work stops. */
  private readonly waitingForSlot: Array<() => void> = [];
  private readonly aborter = new AbortController();
  /** The last event seen (0 before the first: the reader keeps where it started). */
  private lastSeen = 0;
  /** Events whose work finished here: what an operator reads to see which replica works. */
  handled = 0;

  constructor(
    private readonly manager: ProcessManager,
    private readonly options: WorkOptions = {},
  ) {}

  get name(): string {
    return this.manager.name;
  }

  /** Where the next holder would resume: before the oldest unfinished event, or after the last one seen. */
  safePosition(): number {
    // Work is added in log order and a Map keeps insertion order, so the first key is the oldest.
    const oldest = this.inFlight.keys().next();
    return oldest.done ? this.lastSeen : oldest.value - 1;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  async handleEvent(event: RecordedEvent, progressed: () => void): Promise<void> {
    if (this.manager.handles.includes(event.type) && !this.inFlight.has(event.position)) {
      while (this.inFlight.size >= (this.options.concurrency ?? 100)) {
        if (this.aborter.signal.aborted) return;
        // Not Promise.race over the steps in flight: a race leaves a reaction on every one of them until
        // it settles, so a saturated manager whose steps sleep piled up events × slots of them (62 MB
        // for 1,000 steps in a heap snapshot at the worker's heap limit).
        await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
      }
      const work = this.work(event).then((finished) => {
        // Unfinished work (stopped midway) stays in flight, so the safe position stays before it.
        if (finished) {
          this.inFlight.delete(event.position);
          this.handled++;
        }
        this.wakeWaiting();
        progressed();
      });
      this.inFlight.set(event.position, work);
    }
    this.lastSeen = Math.max(this.lastSeen, event.position);
    progressed();
  }

  /** Retries with backoff until the work succeeds (true) or the work stops (false). */
  private async work(event: RecordedEvent): Promise<boolean> {
    const signal = this.aborter.signal;
    let delay = this.options.retryDelayMs ?? 200;
    while (!signal.aborted) {
      try {
        await this.manager.handle(event, signal);
        return !signal.aborted;
      } catch (error) {
        if (signal.aborted) break;
        this.options.onError?.(error, event);
        await sleep(delay, signal).catch(() => undefined);
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 30_000);
      }
    }
    return false;
  }

  /** Each waiting event looks again (the subscription hands on one event at a time: at most one waits). */
  private wakeWaiting(): void {
    for (const wake of this.waitingForSlot.splice(0)) wake();
  }

  abort(): void {
    this.aborter.abort();
    this.wakeWaiting();
  }

  async settled(): Promise<void> {
    await Promise.all(this.inFlight.values());
  }
}
