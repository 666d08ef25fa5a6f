import { Module } from '@nestjs/common';
import { ACCOUNT_RANDOM, AccountDetailsService, AccountsService, cryptoRandom } from '@app/application/accounts';
import { AccountDetailsController } from './account-details.controller';
import { AccountsController } from './accounts.controller';
import { SandboxFundingController } from './sandbox-funding.controller';

@Module({
  controllers: [AccountsController, AccountDetailsController, SandboxFundingController],
  providers: [AccountsService, AccountDetailsService, { provide: ACCOUNT_RANDOM, useValue: cryptoRandom }],
  exports: [AccountsService],
})
export class AccountsModule {}
