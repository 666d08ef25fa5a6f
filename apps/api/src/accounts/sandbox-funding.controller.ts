import { Body, Controller, Param, Post } from '@nestjs/common';
import { AccountsService } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { presentCredit } from '@app/read-models/accounts/account.presenter';
import { FundAccountDto } from './accounts.dto';

@Controller('sandbox/accounts')
export class SandboxFundingController {
  constructor(private readonly accounts: AccountsService) {}

  @Post(':id/fund')
  @SandboxOnly()
  async fund(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: FundAccountDto) {
    return presentCredit(await this.accounts.fundFromSandbox(ctx, id, body));
  }
}
