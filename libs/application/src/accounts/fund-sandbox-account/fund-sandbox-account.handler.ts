import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { accountStream, isAccountId } from '../streams';
import { FundSandboxAccountCommand, type SandboxCredit } from './fund-sandbox-account.command';

/** Every funding on one account contends for its stream; enough retries that a burst all lands. */
const MONEY_ATTEMPTS = 200;

@CommandHandler(FundSandboxAccountCommand)
export class FundSandboxAccountHandler implements ICommandHandler<FundSandboxAccountCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The transaction id is drawn once, so a retried append keeps it. */
  async execute({
    context,
    accountId,
    input: { amount, currency },
  }: FundSandboxAccountCommand): Promise<SandboxCredit> {
    if (!isAccountId(accountId)) throw new DomainException(notFound('account', accountId));
    const transaction_id = `txn_${ulid()}`;
    const now = this.clock.now();
    const command = { type: 'FundAccount' as const, account_id: accountId, transaction_id, amount, currency, now };
    await handleCommand(this.store, accountStream(accountId), accountDecider, command, context, {
      maxAttempts: MONEY_ATTEMPTS,
    });
    return { transaction_id, account_id: accountId, amount, currency, funded: now };
  }
}
