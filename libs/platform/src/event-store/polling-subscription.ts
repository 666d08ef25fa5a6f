import type { RecordedEvent, Subscription } from './event-store.port';

interface PollingOptions<T extends { position: number }> {
  readAfter(after: number): Promise<T[]>;
  /** Registers a wake-up callback; returns its unregister function. */
  onAppend(notify: () => void): () => void;
  pollIntervalMs: number;
  after: number;
  onError?: (error: unknown) => void;
  handler(item: T): Promise<void>;
}

/**
 * Catch-up subscription over anything readable by position: reads batches until empty, then
 * sleeps until woken by an append or the poll interval. Handlers run one at a time, in order.
 */
export function pollingSubscription<T extends { position: number } = RecordedEvent>(
  options: PollingOptions<T>,
): Subscription {
  let stopped = false;
  let wake: (() => void) | null = null;
  // Set by every append signal, so one that arrives while a batch is being read is not slept through.
  let signalled = false;
  const unregister = options.onAppend(() => {
    signalled = true;
    wake?.();
  });
  let position = options.after;

  const loop = (async () => {
    while (!stopped) {
      signalled = false;
      const batch = await options.readAfter(position);
      for (const item of batch) {
        if (stopped) return;
        await options.handler(item);
        position = item.position;
      }
      // SQLite reads and many handlers settle without I/O: a backlog would otherwise be worked
      // through in microtasks alone, starving timers, signals and IPC (a SIGTERM, a parent's exit).
      if (batch.length) await new Promise((resolve) => setImmediate(resolve));
      if (batch.length === 0 && !stopped && !signalled) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  })().catch((error) => {
    stopped = true;
    unregister();
    if (options.onError) options.onError(error);
    else console.error('subscription stopped', error);
  });

  return {
    async stop() {
      stopped = true;
      unregister();
      wake?.();
      await loop;
    },
  };
}
