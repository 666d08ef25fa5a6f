import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { counterpartyDecider, type CounterpartyRecord } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { handleCommand } from '../../command-handling';
import { orgOnly, requireEntity } from '../counterparty-scope';
import { counterpartyStream } from '../streams';
import { CreateCounterpartyCommand } from './create-counterparty.command';

@CommandHandler(CreateCounterpartyCommand)
export class CreateCounterpartyHandler implements ICommandHandler<CreateCounterpartyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input }: CreateCounterpartyCommand): Promise<CounterpartyRecord> {
    await requireEntity(this.store, context, input.entity_id);
    const counterparty_id = `cpt_${ulid()}`;
    const { entity_id, type: counterparty_type, nickname, profile, meta } = input;
    const command = {
      type: 'CreateCounterparty' as const,
      counterparty_id,
      entity_id,
      counterparty_type,
      nickname,
      profile,
      meta,
      now: this.clock.now(),
    };
    // No entity in the stream's metadata: the owner lives in the events and may change.
    const { state } = await handleCommand(
      this.store,
      counterpartyStream(counterparty_id),
      counterpartyDecider,
      command,
      orgOnly(context),
      { entityId: null },
    );
    return state as CounterpartyRecord;
  }
}
