import type { DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { logger } from '@app/platform/logging/logger';
import type { Clock } from '@app/platform/clock';

/**
 * An attempt's outcome: the delivery that became the head of its queue by it, if any. It calls
 * `answered` once its request has its answer (or none will come): what is left is writing the
 * outcome, which waits for the disk, not for the network.
 */
export type Attempt = (deliveryId: string, answered: () => void) => Promise<string | null>;

/**
 * Looks for due deliveries whenever woken (the router scheduled something; an attempt got its
 * answer while the last look left due ones for want of room) and every `intervalMs` (retries
 * coming due, what another process wrote), and attempts each, a bounded number at once, the
 * longest due first. The bound is on requests awaiting their answer: an answered attempt writing
 * its outcome (an fsync, shared with every write made meanwhile, slow on a busy disk) leaves its
 * place. Only queue heads are due (a later event about the same resource waits behind an earlier
 * one being retried); when an attempt hands the head on, the next delivery is attempted at once
 * rather than at the next look. The due list is the delivery store, so what was due before a
 * restart is due after it; its claims keep two workers from making the same attempt.
 */
export class DeliveryScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private ticking = false;
  private lookAgain = false;
  /** The last look found more due than it had room for: an attempt's answer looks again. */
  private behind = false;
  /** Attempts not finished, by delivery (never started twice); `sending` of them still await their answer. */
  private readonly running = new Map<string, Promise<void>>();
  private sending = 0;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly attempt: Attempt,
    private readonly options: { intervalMs: number; concurrency?: number; clock: Clock },
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
      const capacity = (this.options.concurrency ?? 50) - this.sending;
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
    return this.deliveries.due(this.options.clock.now(), 100);
  }

  private run(deliveryId: string): void {
    let sending = true;
    this.sending += 1;
    const answered = () => {
      if (!sending) return;
      sending = false;
      this.sending -= 1;
      if (this.behind) this.wake();
    };
    const work = this.attempt(deliveryId, answered)
      .then((next) => {
        if (next && !this.stopped && !this.running.has(next)) queueMicrotask(() => this.run(next));
      })
      .catch((err) =>
        logger.warn({ err, delivery_id: deliveryId, component: 'webhooks' }, 'delivery attempt failed; it stays due'),
      )
      .finally(() => {
        this.running.delete(deliveryId);
        answered();
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
