import {
  DOMAIN_EVENTS_TOPIC,
  type BusSubscription,
  type ConsumedMessage,
  type MessageBus,
} from '@app/platform/bus/message-bus.port';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';

const RECENT = 10_000;

/**
 * The worker's seat in the consumer group. It takes what the bus has read at once (a batch), and
 * a batch is committed only after its deliveries are scheduled; when routing fails the bus drops
 * this member, and it rejoins after a pause and gets the batch again. Recently routed event ids
 * are skipped (bus redeliveries); beyond that window the derived delivery ids make a repeat a no-op.
 */
export class BusConsumer {
  private subscription: BusSubscription | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly recent = new Set<string>();

  constructor(
    private readonly bus: MessageBus,
    private readonly groupId: string,
    private readonly route: (events: readonly RecordedEvent[]) => Promise<void>,
  ) {}

  /**
   * Joins the group, retrying while the broker is not ready (a fresh Kafka answers "group
   * coordinator not available" for a while); resolves only once joined, so a process that reports
   * healthy is a member and no event published after that is skipped.
   */
  async start(giveUpAfterMs = 60_000): Promise<void> {
    this.stopped = false;
    // Elapsed time, not the wall clock.
    const deadline = performance.now() + giveUpAfterMs;
    for (let delay = 250; ; delay = Math.min(delay * 2, 5000)) {
      try {
        return await this.join();
      } catch (err) {
        if (this.stopped || performance.now() + delay > deadline) throw err;
        logger.warn({ err, component: 'webhooks' }, 'joining the consumer group failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async join(): Promise<void> {
    this.subscription = await this.bus.subscribeBatches(
      DOMAIN_EVENTS_TOPIC,
      this.groupId,
      (messages) => this.handle(messages),
      {
        onError: (err) => {
          logger.warn({ err, component: 'webhooks' }, 'routing an event failed; rejoining the consumer group');
          void this.subscription?.stop();
          if (!this.stopped)
            this.retry = setTimeout(
              () => void this.start().catch((e) => logger.error({ err: e }, 'rejoin failed')),
              1000,
            );
        },
      },
    );
  }

  private async handle(messages: readonly ConsumedMessage[]): Promise<void> {
    const events = messages.map((m) => JSON.parse(m.value) as RecordedEvent).filter((e) => !this.recent.has(e.id));
    if (!events.length) return;
    await this.route(events);
    for (const event of events) this.recent.add(event.id);
    for (const id of this.recent) {
      if (this.recent.size <= RECENT) break;
      this.recent.delete(id);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.subscription?.stop();
    this.subscription = null;
  }
}
