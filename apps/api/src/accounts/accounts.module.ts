import { Module } from '@nestjs/common';
import {
  ACCOUNT_RANDOM,
  cryptoRandom,
  FundSandboxAccountHandler,
  GetAccountHandler,
  IssueAccountDetailsHandler,
  OpenAccountHandler,
} from '@app/application/accounts';
import { ListAccountTransactionsHandler } from '@app/read-models/accounts/list-account-transactions.query-handler';
import { ListAccountsHandler } from '@app/read-models/accounts/list-accounts.query-handler';
import { AccountDetailsController } from './account-details.controller';
import { AccountsController } from './accounts.controller';
import { SandboxFundingController } from './sandbox-funding.controller';
import { StatementsController } from './statements.controller';
import { GetStatementHandler } from '@app/read-models/accounts/statement-query.handler';

/** The statement's controller is registered by TransfersModule; its list query is handled here, with the account's other reads. */
@Module({
  controllers: [AccountsController, AccountDetailsController, SandboxFundingController, StatementsController],
  providers: [
    { provide: ACCOUNT_RANDOM, useValue: cryptoRandom },
    // Commands
    OpenAccountHandler,
    IssueAccountDetailsHandler,
    FundSandboxAccountHandler,
    // Queries
    GetAccountHandler,
    ListAccountsHandler,
    ListAccountTransactionsHandler,
    GetStatementHandler,
  ],
})
export class AccountsModule {}
