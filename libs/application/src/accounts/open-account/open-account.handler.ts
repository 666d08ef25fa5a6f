import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import {
  accountDecider,
  newServiceBan,
  refuseOpenAccount,
  type OpenAccountState,
  type RandomSource,
} from '@app/domain/accounts';
import { entityDecider } from '@app/domain/onboarding';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand, loadAggregate } from '../../command-handling';
import { ACCOUNT_RANDOM } from '../random';
import { reserveUnique } from '../reserve-unique';
import { accountStream, entityStream, serviceBanStream } from '../streams';
import { OpenAccountCommand } from './open-account.command';

@CommandHandler(OpenAccountCommand)
export class OpenAccountHandler implements ICommandHandler<OpenAccountCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACCOUNT_RANDOM) private readonly random: RandomSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Checks everything first, so a refused opening reserves no service BAN. */
  async execute({ context, input }: OpenAccountCommand): Promise<OpenAccountState> {
    const entity = await loadAggregate(this.store, entityStream(input.entity_id), entityDecider, context);
    if (!entity || entity.state.status === 'none') throw new DomainException(notFound('entity', input.entity_id));
    const account_id = `acc_${ulid()}`;
    const command = {
      type: 'OpenAccount' as const,
      account_id,
      entity: { id: input.entity_id, status: entity.state.status },
      mode: context.actor.mode,
      account_type: input.type,
      currency: input.currency,
      display_name: input.display_name,
      now: this.clock.now(),
    };
    const refused = refuseOpenAccount(command);
    if (refused) throw new DomainException(refused);
    const service_ban = await reserveUnique(
      this.store,
      context,
      input.entity_id,
      () => newServiceBan(this.random),
      (ban) => ({
        stream: serviceBanStream(ban),
        event: { type: 'ServiceBanReserved', data: { service_ban: ban, account_id } },
      }),
    );
    const opened = await handleCommand(
      this.store,
      accountStream(account_id),
      accountDecider,
      { ...command, service_ban },
      context,
      { entityId: input.entity_id },
    );
    return opened.state as OpenAccountState;
  }
}
