import type { ReadStore } from '@app/platform/read-store/read-store.port';
import { logger } from '@app/platform/logging/logger';
import { DUE_DELIVERIES, type DueDeliveryDocument } from '@app/read-models/webhooks/due-deliveries.projection';

/**
 * Looks for due deliveries every `intervalMs` and attempts each, a bounded number at once. The due
 * list is a read model of delivery events, so what was due before a restart is due after it; the
 * claim in the delivery stream keeps two workers (or a stale list entry) from attempting twice.
 */
export class DeliveryScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly readStore: ReadStore,
    private readonly attempt: (deliveryId: string) => Promise<void>,
    private readonly options: { intervalMs: number; concurrency?: number },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.options.intervalMs);
  }

  private async tick(): Promise<void> {
    try {
      const capacity = (this.options.concurrency ?? 50) - this.running.size;
      if (capacity > 0) {
        const due = await this.readStore.find<DueDeliveryDocument>(DUE_DELIVERIES, { limit: 100, range: { field: 'due_at', lte: Date.now() } });
        for (const doc of due.items.filter((d) => !this.running.has(d.id)).slice(0, capacity)) this.run(doc.id);
      }
    } catch (err) {
      logger.warn({ err, component: 'webhooks' }, 'looking for due deliveries failed');
    }
    this.schedule();
  }

  private run(deliveryId: string): void {
    const work = this.attempt(deliveryId)
      .catch((err) => logger.warn({ err, delivery_id: deliveryId, component: 'webhooks' }, 'delivery attempt failed; it stays due'))
      .finally(() => this.running.delete(deliveryId));
    this.running.set(deliveryId, work);
  }

  /** Lets attempts in flight finish (each is bounded by the timeout), so none is left half-recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all(this.running.values());
  }
}
