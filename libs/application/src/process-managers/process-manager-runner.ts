import type { EventStore, RecordedEvent, Subscription } from '@app/platform/event-store/event-store.port';
import type { ReadStore } from '@app/platform/read-store/read-store.port';

/**
 * Work that follows from events: a review after a submission, a transfer's next step. `handle`
 * must be idempotent (every event can arrive more than once) and should honour `signal`, which
 * aborts on shutdown; work that throws or is aborted is not done and will run again.
 */
export interface ProcessManager {
  readonly name: string;
  readonly handles: readonly string[];
  handle(event: RecordedEvent, signal: AbortSignal): Promise<void>;
}

export interface RunnerOptions {
  /** At most this many events are worked on at once; the subscription waits beyond it. */
  readonly concurrency?: number;
  readonly retryDelayMs?: number;
  readonly maxRetryDelayMs?: number;
  readonly onError?: (error: unknown, event: RecordedEvent) => void;
}

/**
 * Runs a process manager from a checkpoint kept in the read store. Events are worked on
 * concurrently (a delayed step must not hold up the next one), but the checkpoint only moves past
 * an event once its work is finished: it stays just before the oldest unfinished event. After a
 * crash or restart, the runner resumes there, so scheduled work is never lost; finished work seen
 * again is re-run, which idempotent handlers turn into no-ops.
 */
export class ProcessManagerRunner {
  private subscription: Subscription | null = null;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  private lastSeen = 0;
  private saved = 0;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly manager: ProcessManager,
    private readonly options: RunnerOptions = {},
  ) {}

  get checkpointName(): string {
    return `process-manager:${this.manager.name}`;
  }

  async start(): Promise<void> {
    this.saved = this.lastSeen = await this.readStore.getCheckpoint(this.checkpointName);
    this.subscription = this.store.subscribeToAll({ after: this.saved }, (event) => this.onEvent(event));
  }

  /** Where a restart would resume: before the oldest unfinished event, or after the last one seen. */
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
        await Promise.race(this.inFlight.values());
      }
      const work = this.work(event).then((finished) => {
        // Unfinished work (stopped midway) stays in flight, so the checkpoint stays before it.
        if (finished) this.inFlight.delete(event.position);
        this.scheduleSave();
      });
      this.inFlight.set(event.position, work);
    }
    this.lastSeen = Math.max(this.lastSeen, event.position);
    this.scheduleSave();
  }

  /** Retries with backoff until the work succeeds (true) or the runner stops (false). */
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

  /** Checkpoint writes are coalesced: losing the last few is harmless, they are only re-run. */
  private scheduleSave(): void {
    if (this.saveTimer || this.checkpoint <= this.saved) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, 50);
  }

  private save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const position = this.checkpoint;
      if (position <= this.saved) return;
      await this.readStore.apply([], { [this.checkpointName]: position });
      this.saved = position;
    });
    return this.saving;
  }

  /** Aborts unfinished work, then saves how far finished work goes. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.subscription?.stop();
    this.subscription = null;
    await Promise.all(this.inFlight.values());
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }
}

/** Resolves after `ms` (at once when not positive); rejects when `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const sleepers = sleepersOf(signal);
    const wake = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      sleepers.delete(wake);
      resolve();
    }, ms);
    sleepers.add(wake);
  });
}

/**
 * One abort listener per signal, fanning out to a set: hundreds of sleeping steps each adding
 * their own listener made every add scan the signal's listener list.
 */
const sleepersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

function sleepersOf(signal: AbortSignal): Set<() => void> {
  let sleepers = sleepersBySignal.get(signal);
  if (!sleepers) {
    const created = new Set<() => void>();
    sleepersBySignal.set(signal, (sleepers = created));
    signal.addEventListener('abort', () => created.forEach((wake) => wake()), { once: true });
  }
  return sleepers;
}
