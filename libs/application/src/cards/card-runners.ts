import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { logger } from '@app/platform/logging/logger';
import { ProcessManagerRunners } from '../process-managers';
import { cardMoneyManager } from './card-money.process-manager';

/** The card-money backstop runs in every deployment, once (its lease), like the transfers' one. */
@Injectable()
export class CardRunners implements OnApplicationBootstrap {
  constructor(
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const manager = cardMoneyManager(this.commands);
    await this.runners.start(manager, {
      concurrency: 1_000,
      onError: (err, event) => logger.warn({ err, event_id: event.id, stream: event.streamId, manager: manager.name }, 'card money step failed; retrying'),
    });
  }
}
