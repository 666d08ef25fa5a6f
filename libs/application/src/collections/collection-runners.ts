import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@app/platform/clock';
import { logger } from '@app/platform/logging/logger';
import { ProcessManagerRunners } from '@app/platform/log-processing';
import { AUTHORIZATION_DEADLINE, AUTHORIZATION_DEADLINE_MS } from './collections-config';
import {
  REFUND_GRACE_MS,
  acquirerManager,
  refundManager,
  refundRequestManager,
  settlementManager,
} from './collections.process-managers';

const CONCURRENCY = 100;
/**
 * The acquirer backstop holds each event's slot for the whole deadline, so its
 * limit is what may wait at once: with 100 it would keep up with only 100 confirmations per deadline.
 */
const WAITING_CONCURRENCY = 500; // bounded as the transfer runners' (transfer-runners.ts says why)

/** The acquirer, settlement and refund backstops always run: requests rely on them after a crash. */
@Injectable()
export class CollectionRunners implements OnApplicationBootstrap {
  constructor(
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(AUTHORIZATION_DEADLINE) private readonly deadlineMs: number = AUTHORIZATION_DEADLINE_MS,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const managers = [
      { manager: acquirerManager(this.commands, this.deadlineMs, this.clock), concurrency: WAITING_CONCURRENCY },
      { manager: settlementManager(this.commands), concurrency: CONCURRENCY },
      { manager: refundManager(this.commands), concurrency: CONCURRENCY },
      { manager: refundRequestManager(this.commands, REFUND_GRACE_MS, this.clock), concurrency: WAITING_CONCURRENCY },
    ];
    for (const { manager, concurrency } of managers) {
      await this.runners.start(manager, {
        concurrency,
        // Never the event itself: only ids (card data is never in an event anyway).
        onError: (err, event) =>
          logger.warn(
            { err, event_id: event.id, stream: event.streamId, manager: manager.name },
            'collections step failed; retrying',
          ),
      });
    }
  }
}
