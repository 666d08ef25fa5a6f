import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { accountDecider, defaultRail, RAILS, refuseAccountDetails, type AccountDetailsRecord, type AssetType, type OpenAccountState, type RandomSource, type Rail } from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, type CommandContext } from '../command-handling';
import { AccountsService } from './accounts.service';
import { ACCOUNT_RANDOM } from './random';
import { reserveUnique } from './reserve-unique';
import { accountNumberStream, accountStream } from './streams';

export interface IssuedDetails {
  readonly details: AccountDetailsRecord;
  /** False when the account already had coordinates on this rail (answered 200, not 201). */
  readonly created: boolean;
}

@Injectable()
export class AccountDetailsService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACCOUNT_RANDOM) private readonly random: RandomSource,
    private readonly accounts: AccountsService,
  ) {}

  async issue(context: CommandContext, input: { account_id: string; asset_type: AssetType; rail?: Rail }): Promise<IssuedDetails> {
    const account = await this.accounts.get(context, input.account_id);
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
        event: { type: 'AccountNumberReserved', data: { rail: chosen, account_number: n, account_id: account.id, account_details_id } },
      }),
    );
    // A concurrent request may have issued this rail meanwhile: the decider then appends nothing
    // and the record already on the account is the answer (the number reserved here stays unused).
    const { state, newEvents } = await handleCommand(
      this.store,
      accountStream(account.id),
      accountDecider,
      { type: 'IssueAccountDetails', account_id: account.id, account_details_id, asset_type: input.asset_type, rail: chosen, account_number, now: Date.now() },
      context,
      { maxAttempts: 200 },
    );
    return { details: (state as OpenAccountState).details[chosen]!, created: newEvents.length > 0 };
  }
}
