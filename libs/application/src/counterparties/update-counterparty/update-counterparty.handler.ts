import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CounterpartyRecord } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { onCounterparty } from '../on-counterparty';
import { requireEntity, scopeOf } from '../counterparty-scope';
import { UpdateCounterpartyCommand } from './update-counterparty.command';

@CommandHandler(UpdateCounterpartyCommand)
export class UpdateCounterpartyHandler implements ICommandHandler<UpdateCounterpartyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, counterpartyId, change }: UpdateCounterpartyCommand): Promise<CounterpartyRecord> {
    const reassignTo = context.actor.entityId ? null : (change.entity_id ?? null);
    if (reassignTo) await requireEntity(this.store, context, reassignTo);
    const { nickname, profile, meta } = change;
    const command = {
      type: 'UpdateCounterparty' as const,
      counterparty_id: counterpartyId,
      scope: scopeOf(context.actor),
      reassign_to: reassignTo,
      nickname,
      profile,
      meta,
      now: this.clock.now(),
    };
    return onCounterparty(this.store, context, counterpartyId, command);
  }
}
