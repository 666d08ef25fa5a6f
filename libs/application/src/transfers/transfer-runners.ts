import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@app/platform/clock';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { paymentDetailIndexManager } from '../counterparties/payment-detail-index.process-manager';
import { ProcessManagerRunners, type ProcessManager } from '@app/platform/log-processing';
import { MONEY_GRACE_MS, transferMoneyManager } from './transfer-money.process-manager';
import { RAIL_STEP_MS, transferRailsManager } from './transfer-rails.process-manager';
import { RESERVATION_GRACE_MS, transferRecoveryManager } from './transfer-recovery.process-manager';

/**
 * Waiting steps (network delays, recovery grace) hold a slot each. A slot is not free: it keeps its
 * event and contexts and, once awake, a command queued on the account (about 4 KB each in a heap
 * snapshot), so 5,000 slots per manager took the worker past its heap limit under load. A step
 * sleeps until its event's time plus its delay, so a manager behind the log catches up without
 * sleeping: 500 slots cover a 5 s grace at 100 events per second.
 */
const CONCURRENCY = 500;

/**
 * Money and crash recovery always run: they keep balances true whoever moves a transfer. The
 * simulated network runs only with SANDBOX_AUTO_ADVANCE; otherwise `/sandbox/transfers/{id}/advance` moves them.
 */
@Injectable()
export class TransferRunners implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Payouts find payment details through their index, so its backfill runs beside them.
    const managers: ProcessManager[] = [
      transferMoneyManager(this.store, this.commands, MONEY_GRACE_MS, this.clock),
      transferRecoveryManager(this.store, this.commands, RESERVATION_GRACE_MS, this.clock),
      paymentDetailIndexManager(this.commands),
    ];
    if (this.config.sandboxAutoAdvance) managers.push(transferRailsManager(this.commands, RAIL_STEP_MS, this.clock));
    for (const manager of managers) {
      await this.runners.start(manager, {
        concurrency: CONCURRENCY,
        onError: (err, event) =>
          logger.warn(
            { err, event_id: event.id, stream: event.streamId, manager: manager.name },
            'transfer step failed; retrying',
          ),
      });
    }
  }
}
