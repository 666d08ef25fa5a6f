import type {
  AppendResult,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store/event-store.port';
import { logger } from '../logging/logger';

export interface SharedTailOptions {
  /** Events a catching-up subscriber reads per page on its own. */
  readonly pageSize?: number;
  /** Events a follower may have waiting; past it, it leaves the tail and reads on its own until it is back. */
  readonly maxQueue?: number;
  /** Events the tail keeps after handing them on, so a subscriber just behind it can join without reading. */
  readonly keep?: number;
  /** How long a subscriber that could not join waits before reading again. */
  readonly retryMs?: number;
}

/** Reads of the log this process made, for tests and /health. */
export interface TailStats {
  /** Subscriptions the tail opened on the adapter (one per process while it runs). */
  readonly tails: number;
  /** Pages subscribers read on their own while catching up. */
  readonly catchUpPages: number;
  /** Subscribers following the tail now, and subscribed in all. */
  readonly following: number;
  readonly subscribers: number;
}

/**
 * Told of each event the tail hands on, in log order (`event`), and each time the tail opens again
 * (`reopened`: what came before may have passed unseen). A cache of streams read from the log
 * (the webhook directory) learns from it that a stream has not changed, without reading it.
 */
export interface TailWatcher {
  event(event: RecordedEvent): void;
  reopened(): void;
}

/** What a watcher of the tail sees of it (`SharedTailEventStore.watch`). */
export interface WatchedTail {
  watch(watcher: TailWatcher): () => void;
  /** Every event up to this position has been handed on to the watchers; 0 while no tail runs. */
  readonly watchedUpTo: number;
}

/**
 * One tail read of the log per process, shared by every subscriber (projector, publisher, process
 * managers): the adapter has a single subscription from where the followers are, and each event it
 * delivers is handed to every follower's queue. Each subscriber still runs its handler one event at
 * a time, in order, at its own pace, from its own position:
 *
 * - a subscriber that starts behind the tail (an older checkpoint) reads pages on its own until it
 *   reaches the tail, then follows it (joining is synchronous, so no event falls between the two);
 * - a follower whose queue grows past `maxQueue` (a slow handler) leaves the tail and reads on its
 *   own from its position, so the tail never waits for the slowest and memory stays bounded.
 *
 * Delivery is what the port promises: every event after `after`, once, in log order.
 */
export class SharedTailEventStore implements EventStore, WatchedTail {
  private readonly followers = new Set<TailFollower>();
  private readonly watchers = new Set<TailWatcher>();
  private readonly subscribers = new Set<TailFollower>();
  private tail: Subscription | null = null;
  /** Position of the last event the tail handed on. */
  private cursor = 0;
  /** The last events handed on, oldest first, and the position just before the first of them. */
  private kept: RecordedEvent[] = [];
  private keptAfter = 0;
  private tails = 0;
  catchUpPages = 0;
  readonly pageSize: number;
  readonly maxQueue: number;
  readonly retryMs: number;
  private readonly keep: number;

  constructor(
    readonly inner: EventStore,
    options: SharedTailOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 500;
    this.maxQueue = options.maxQueue ?? 5_000;
    this.keep = options.keep ?? 2_000;
    this.retryMs = options.retryMs ?? 100;
  }

  append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamId, events, expected);
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: { after?: number; limit?: number }): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  subscribeToAll(options: SubscribeOptions, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const follower = new TailFollower(this, options.after ?? 0, handler, options.onError);
    this.subscribers.add(follower);
    follower.start();
    return follower;
  }

  get stats(): TailStats {
    return {
      tails: this.tails,
      catchUpPages: this.catchUpPages,
      following: this.followers.size,
      subscribers: this.subscribers.size,
    };
  }

  watch(watcher: TailWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  get watchedUpTo(): number {
    return this.tail ? this.cursor : 0;
  }

  /**
   * A subscriber that has handled everything up to `position` asks to follow. Synchronous, so no
   * event the tail hands on can fall between its last page and its first queued event.
   */
  join(follower: TailFollower): boolean {
    if (!this.tail) this.open(follower.position);
    if (follower.position >= this.cursor) {
      this.followers.add(follower);
      follower.follow([]);
      return true;
    }
    if (follower.position >= this.keptAfter) {
      this.followers.add(follower);
      follower.follow(this.kept.filter((e) => e.position > follower.position));
      return true;
    }
    return false;
  }

  leave(follower: TailFollower): void {
    this.followers.delete(follower);
  }

  forget(follower: TailFollower): void {
    this.followers.delete(follower);
    this.subscribers.delete(follower);
  }

  private open(from: number): void {
    this.cursor = from;
    this.keptAfter = from;
    this.kept = [];
    this.tails++;
    for (const watcher of this.watchers) watcher.reopened();
    const tail = this.inner.subscribeToAll(
      {
        after: from,
        onError: (error) => {
          // The followers go on reading by themselves (and meet the error there, or not if it passed).
          logger.warn(
            { err: error, component: 'log-tail' },
            'the shared log tail stopped; subscribers read on their own',
          );
          if (this.tail === tail) this.tail = null;
          for (const follower of [...this.followers]) follower.detach();
          this.followers.clear();
        },
      },
      async (event) => this.handOn(event),
    );
    this.tail = tail;
  }

  private handOn(event: RecordedEvent): void {
    if (event.position <= this.cursor) return;
    this.cursor = event.position;
    for (const watcher of this.watchers) watcher.event(event);
    this.kept.push(event);
    if (this.kept.length > this.keep)
      this.keptAfter = this.kept.splice(0, this.kept.length - this.keep).pop()!.position;
    for (const follower of this.followers) {
      if (!follower.offer(event, this.maxQueue)) this.followers.delete(follower);
    }
  }

  async close(): Promise<void> {
    const tail = this.tail;
    this.tail = null;
    await tail?.stop();
    await this.inner.close();
  }
}

/** One subscriber: its handler, its position, and the events the tail queued for it. */
class TailFollower implements Subscription {
  position: number;
  private queue: RecordedEvent[] = [];
  private following = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly shared: SharedTailEventStore,
    after: number,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly onError?: (error: unknown) => void,
  ) {
    this.position = after;
  }

  start(): void {
    this.loop = this.run().catch((error) => {
      this.stopped = true;
      this.shared.forget(this);
      if (this.onError) this.onError(error);
      else logger.error({ err: error, component: 'log-tail' }, 'subscription stopped');
    });
  }

  follow(backlog: RecordedEvent[]): void {
    this.following = true;
    this.queue = backlog;
    this.notify();
  }

  /** False when the queue is full: the follower then reads on its own from its position. */
  offer(event: RecordedEvent, maxQueue: number): boolean {
    if (this.queue.length >= maxQueue) {
      this.detach();
      return false;
    }
    this.queue.push(event);
    this.notify();
    return true;
  }

  detach(): void {
    this.following = false;
    this.queue = [];
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.following) {
        if (!this.queue.length) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        await this.handle(this.queue.splice(0));
        continue;
      }
      const page = await this.shared.inner.readAll({ after: this.position, limit: this.shared.pageSize });
      this.shared.catchUpPages++;
      await this.handle(page);
      if (this.stopped || page.length === this.shared.pageSize) continue;
      if (this.shared.join(this)) continue;
      // The tail is ahead by more than it keeps: read again after a pause.
      if (!page.length) await new Promise<void>((resolve) => setTimeout(resolve, this.shared.retryMs));
    }
  }

  private async handle(events: readonly RecordedEvent[]): Promise<void> {
    let sinceYield = 0;
    for (const event of events) {
      if (this.stopped) return;
      if (event.position <= this.position) continue;
      await this.handler(event);
      this.position = event.position;
      // Handlers that settle without I/O would otherwise work a backlog through in microtasks
      // alone, starving timers, signals and IPC (a heartbeat, a SIGTERM).
      if (++sinceYield >= 500) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (sinceYield) await new Promise((resolve) => setImmediate(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.shared.forget(this);
    this.notify();
    await this.loop;
  }
}

/** The shared tail under the product's wrappers of `store`, if it has one. */
export function sharedTailOf(store: EventStore): SharedTailEventStore | null {
  for (let current: EventStore | undefined = store; current; current = (current as { inner?: EventStore }).inner) {
    if (current instanceof SharedTailEventStore) return current;
  }
  return null;
}
