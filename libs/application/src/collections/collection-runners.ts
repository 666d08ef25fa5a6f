import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { logger } from '@app/platform/logging/logger';
import { ProcessManagerRunners } from '../process-managers';
import { acquirerManager, refundManager, settlementManager } from './collections.process-managers';

const CONCURRENCY = 100;

/** The acquirer, settlement and refund backstops always run: requests rely on them after a crash. */
@Injectable()
export class CollectionRunners implements OnApplicationBootstrap {
  constructor(
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const manager of [acquirerManager(this.commands), settlementManager(this.commands), refundManager(this.commands)]) {
      await this.runners.start(manager, {
        concurrency: CONCURRENCY,
        // Never the event itself: only ids (card data is never in an event anyway).
        onError: (err, event) => logger.warn({ err, event_id: event.id, stream: event.streamId, manager: manager.name }, 'collections step failed; retrying'),
      });
    }
  }
}
