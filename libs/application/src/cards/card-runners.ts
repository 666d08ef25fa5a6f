import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { logger } from '@app/platform/logging/logger';
import { CLOCK, type Clock } from '@app/platform/clock';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ProcessManagerRunners } from '@app/platform/log-processing';
import { cardMoneyManager } from './card-money.process-manager';
import {
  AUTHORIZATION_OUTCOME_MARGIN_MS,
  cardAuthorizationRecoveryManager,
} from './card-authorization-recovery.process-manager';

/** The card-money and authorization-outcome backstops run in every deployment, once each (their leases), like the transfers' ones. */
@Injectable()
export class CardRunners implements OnApplicationBootstrap {
  constructor(
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const graceMs = this.config.cardAuthorizationTimeoutMs + AUTHORIZATION_OUTCOME_MARGIN_MS;
    for (const manager of [
      cardMoneyManager(this.commands),
      cardAuthorizationRecoveryManager(this.store, this.commands, graceMs, this.clock),
    ]) {
      await this.runners.start(manager, {
        concurrency: 1_000,
        onError: (err, event) =>
          logger.warn(
            { err, event_id: event.id, stream: event.streamId, manager: manager.name },
            `${manager.name} step failed; retrying`,
          ),
      });
    }
  }
}
