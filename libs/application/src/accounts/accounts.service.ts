import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { notFound } from '@app/domain';
import { accountDecider, newServiceBan, refuseOpenAccount, type OpenAccountState, type RandomSource } from '@app/domain/accounts';
import { entityDecider } from '@app/domain/onboarding';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException, handleCommand, loadAggregate, type CommandContext } from '../command-handling';
import { ACCOUNT_RANDOM } from './random';
import { reserveUnique } from './reserve-unique';
import { accountStream, entityStream, isAccountId, serviceBanStream } from './streams';

/** Every funding on one account contends for its stream; enough retries that a burst all lands. */
const MONEY_ATTEMPTS = 200;

export interface OpenAccountInput {
  readonly entity_id: string;
  readonly type: string;
  readonly currency: string;
  readonly display_name: string;
}

export interface SandboxCredit {
  readonly transaction_id: string;
  readonly account_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly funded: number;
}

@Injectable()
export class AccountsService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACCOUNT_RANDOM) private readonly random: RandomSource,
  ) {}

  /** Checks everything first, so a refused opening reserves no service BAN. */
  async open(context: CommandContext, input: OpenAccountInput): Promise<OpenAccountState> {
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
      now: Date.now(),
    };
    const refused = refuseOpenAccount(command);
    if (refused) throw new DomainException(refused);
    const service_ban = await reserveUnique(
      this.store,
      context,
      input.entity_id,
      () => newServiceBan(this.random),
      (ban) => ({ stream: serviceBanStream(ban), event: { type: 'ServiceBanReserved', data: { service_ban: ban, account_id } } }),
    );
    const { state } = await handleCommand(this.store, accountStream(account_id), accountDecider, { ...command, service_ban }, context, {
      entityId: input.entity_id,
    });
    return state as OpenAccountState;
  }

  /** Folds the stream: read-your-writes, tenancy enforced (another org: 404, another entity: 403). */
  async get(context: Pick<CommandContext, 'actor'>, accountId: string): Promise<OpenAccountState> {
    if (!isAccountId(accountId)) throw new DomainException(notFound('account', accountId));
    const loaded = await loadAggregate(this.store, accountStream(accountId), accountDecider, context);
    if (!loaded || loaded.state.status !== 'open') throw new DomainException(notFound('account', accountId));
    return loaded.state;
  }

  /** A settled sandbox credit. The transaction id is drawn once, so a retried append keeps it. */
  async fundFromSandbox(context: CommandContext, accountId: string, input: { amount: number; currency: string }): Promise<SandboxCredit> {
    if (!isAccountId(accountId)) throw new DomainException(notFound('account', accountId));
    const transaction_id = `txn_${ulid()}`;
    const now = Date.now();
    await handleCommand(
      this.store,
      accountStream(accountId),
      accountDecider,
      { type: 'FundAccount', account_id: accountId, transaction_id, amount: input.amount, currency: input.currency, now },
      context,
      { maxAttempts: MONEY_ATTEMPTS },
    );
    return { transaction_id, account_id: accountId, amount: input.amount, currency: input.currency, funded: now };
  }
}
