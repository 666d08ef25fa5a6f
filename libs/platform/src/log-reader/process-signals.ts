/** A wake-up without payload; listeners run synchronously on `notify`. */
export class Signal {
  private readonly listeners = new Set<() => void>();

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Resolves on the next `notify`, or after `ms` (true when notified). */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      const off = this.on(() => done(true));
      const done = (notified: boolean) => {
        clearTimeout(timer);
        off();
        resolve(notified);
      };
    });
  }
}

/**
 * Wake-ups between the processes `npm start` runs on one DATA_DIR (the API and the worker it
 * supervises), relayed over their IPC channel (apps/api/src/background, apps/worker). Each is only a hint to
 * look again now: without them both sides still see everything by polling SQLite, just later.
 */
export const processSignals = {
  /** This process committed events to the embedded log. */
  appended: new Signal(),
  /** A sibling process committed events to the same log file: subscriptions should read now. */
  siblingAppended: new Signal(),
  /** A sibling process's projector stored checkpoints: read-your-writes waiters should look now. */
  checkpointsMoved: new Signal(),
};
