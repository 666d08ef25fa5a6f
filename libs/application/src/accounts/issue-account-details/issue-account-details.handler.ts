import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  accountDecider,
  defaultRail,
  RAILS,
  refuseAccountDetails,
  type OpenAccountState,
  type RandomSource,
  type Rail,
} from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { loadOpenAccount } from '../account';
import { ACCOUNT_RANDOM } from '../random';
import { reserveUnique } from '../reserve-unique';
import { accountNumberStream, accountStream } from '../streams';
import { IssueAccountDetailsCommand, type IssuedDetails } from './issue-account-details.command';

@CommandHandler(IssueAccountDetailsCommand)
export class IssueAccountDetailsHandler implements ICommandHandler<IssueAccountDetailsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACCOUNT_RANDOM) private readonly random: RandomSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input }: IssueAccountDetailsCommand): Promise<IssuedDetails> {
    const account = await loadOpenAccount(this.store, context.actor, input.account_id);
    const rail = input.rail ?? defaultRail(account.currency);
    const refused = refuseAccountDetails(account, input.asset_type, rail);
    if (refused) throw new DomainException(refused);
    const chosen = rail as Rail;
    const existing = account.details[chosen];
    if (existing) return { details: existing, created: false };
    const account_details_id = `acd_${ulid()}`;
    const account_number = await reserveUnique(
      this.store,
      context,
      account.entity_id,
      () => RAILS[chosen].newNumber(this.random),
      (n) => ({
        stream: accountNumberStream(chosen, n),
        event: {
          type: 'AccountNumberReserved',
          data: { rail: chosen, account_number: n, account_id: account.id, account_details_id },
        },
      }),
    );
    // A concurrent request may have issued this rail meanwhile: the decider then appends nothing
    // and the record already on the account is the answer (the number reserved here stays unused).
    const command = {
      type: 'IssueAccountDetails' as const,
      account_id: account.id,
      account_details_id,
      asset_type: input.asset_type,
      rail: chosen,
      account_number,
      now: this.clock.now(),
    };
    const { state, newEvents } = await handleCommand(
      this.store,
      accountStream(account.id),
      accountDecider,
      command,
      context,
      { maxAttempts: 200 },
    );
    return { details: (state as OpenAccountState).details[chosen]!, created: newEvents.length > 0 };
  }
}
