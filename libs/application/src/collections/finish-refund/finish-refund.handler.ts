import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isDomainError } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException } from '../../command-handling';
import { FinishRefundCommand } from './finish-refund.command';
import { finishRefund } from './finish-refund';

@CommandHandler(FinishRefundCommand)
export class FinishRefundHandler implements ICommandHandler<FinishRefundCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, requested }: FinishRefundCommand): Promise<void> {
    try {
      await finishRefund(this.store, this.clock, requested, context);
    } catch (error) {
      // Refused for the balance: the intent freed the amount; nothing is left to do.
      if (!(
        error instanceof DomainException &&
        isDomainError(error.error) &&
        error.error.code === 'insufficient_funds'
      ))
        throw error;
    }
  }
}
