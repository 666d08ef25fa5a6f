import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CounterpartyRecord } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { scopeOf } from '../counterparty-scope';
import { onCounterparty } from '../on-counterparty';
import { DeactivateCounterpartyCommand } from './deactivate-counterparty.command';

@CommandHandler(DeactivateCounterpartyCommand)
export class DeactivateCounterpartyHandler implements ICommandHandler<DeactivateCounterpartyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ context, counterpartyId, entityId }: DeactivateCounterpartyCommand): Promise<CounterpartyRecord> {
    const command = {
      type: 'DeactivateCounterparty' as const,
      counterparty_id: counterpartyId,
      scope: scopeOf(context.actor, entityId),
      now: this.clock.now(),
    };
    return onCounterparty(this.store, context, counterpartyId, command);
  }
}
