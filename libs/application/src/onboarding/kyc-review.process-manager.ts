import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AUTOMATIC_REVIEW_DELAY_MS } from '@app/domain/onboarding';
import { CLOCK, systemClock, type Clock } from '@app/platform/clock';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { modeOf } from '@app/platform/event-store/event-mode';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { reactionContext } from '../command-handling';
import { ProcessManagerRunners, type ProcessManager } from '@app/platform/log-processing';
import { CompleteAutomaticReviewCommand } from './complete-automatic-review/complete-automatic-review.command';

/**
 * The sandbox KYC/KYB review: about a second after a submission, decide it by the sandbox rule.
 * The delay is measured from the submission time in the event, so a review that was due while
 * the process was down runs as soon as it is back. Deciding an already decided entity is a no-op.
 */
export function kycReviewManager(
  commands: CommandBus,
  delayMs = AUTOMATIC_REVIEW_DELAY_MS,
  clock: Clock = systemClock,
): ProcessManager {
  return {
    name: 'kyc-review',
    handles: ['OnboardingSubmitted'],
    async handle(event: RecordedEvent, signal: AbortSignal) {
      // A simulator never reviews a live entity (decisions §1): the operator API does.
      if (modeOf(event.metadata) === 'live') return;
      const entityId = String(event.data.entity_id);
      await clock.sleepUntil(Number(event.data.submitted) + delayMs, signal);
      await commands.execute(new CompleteAutomaticReviewCommand(reactionContext(event, 'kyc-review'), entityId));
    },
  };
}

/** Runs the automatic review when SANDBOX_AUTO_ADVANCE is on, in the replica holding its lease. */
@Injectable()
export class KycReviewRunner implements OnApplicationBootstrap {
  constructor(
    private readonly commands: CommandBus,
    private readonly runners: ProcessManagerRunners,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.sandboxAutoAdvance) return;
    await this.runners.start(kycReviewManager(this.commands, AUTOMATIC_REVIEW_DELAY_MS, this.clock), {
      onError: (err, event) =>
        logger.warn(
          { err, event_id: event.id, entity_id: event.data.entity_id },
          'automatic KYC review failed; retrying',
        ),
    });
  }
}
