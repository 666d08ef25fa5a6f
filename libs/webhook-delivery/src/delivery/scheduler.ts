import type { DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { logger } from '@app/platform/logging/logger';

/** An attempt's outcome: the delivery that became the head of its queue by it, if any. */
export type Attempt = (deliveryId: string) => Promise<string | null>;

/**
 * Looks for due deliveries whenever woken (the router scheduled something; an attempt ended while
 * the last look left due ones for want of room) and every `intervalMs` (retries coming due, what
 * another process wrote), and attempts each, a bounded number at once, the longest due first. Only
 * queue heads are due (a later event about the same resource waits behind an earlier one being
 * retried); when an attempt hands the head on, the next delivery is attempted at once rather than
 * at the next look. The due list is the delivery store, so what was due before a restart is due
 * after it; its claims keep two workers from making the same attempt.
 */
export class DeliveryScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private ticking = false;
  private lookAgain = false;
  /** The last look found more due than it had room for: the end of an attempt looks again. */
  private behind = false;
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly attempt: Attempt,
    private readonly options: { intervalMs: number; concurrency?: number },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.options.intervalMs);
  }

  /** Looks now rather than at the next interval: a delivery was just scheduled, so it goes out without waiting for the poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) return void (this.lookAgain = true);
    if (this.timer) clearTimeout(this.timer);
    void this.tick();
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      const capacity = (this.options.concurrency ?? 50) - this.running.size;
      const due = capacity > 0 ? (await this.due()).filter((d) => !this.running.has(d)) : [];
      this.behind = capacity <= 0 || due.length > capacity;
      for (const id of due.slice(0, capacity)) this.run(id);
    } catch (err) {
      logger.warn({ err, component: 'webhooks' }, 'looking for due deliveries failed');
    }
    this.ticking = false;
    if (this.lookAgain && !this.stopped) {
      this.lookAgain = false;
      return void setImmediate(() => void this.tick());
    }
    this.schedule();
  }

  private due(): Promise<string[]> {
    return this.deliveries.due(Date.now(), 100);
  }

  private run(deliveryId: string): void {
    const work = this.attempt(deliveryId)
      .then((next) => {
        if (next && !this.stopped && !this.running.has(next)) queueMicrotask(() => this.run(next));
      })
      .catch((err) => logger.warn({ err, delivery_id: deliveryId, component: 'webhooks' }, 'delivery attempt failed; it stays due'))
      .finally(() => {
        this.running.delete(deliveryId);
        if (this.behind) this.wake();
      });
    this.running.set(deliveryId, work);
  }

  /** Lets attempts in flight finish (each is bounded by the timeout), so none is left half-recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running.size) await Promise.all(this.running.values());
  }
}
