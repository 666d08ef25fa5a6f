import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FundSandboxAccountCommand } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { presentCredit } from '@app/read-models/accounts/account.presenter';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { FundAccountDto } from './accounts.dto';

@Controller('sandbox/accounts')
export class SandboxFundingController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/fund')
  @SandboxOnly()
  async fund(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: FundAccountDto) {
    return presentCredit(await this.commands.execute(new FundSandboxAccountCommand(ctx, id, { amount: body.amount, currency: body.currency })));
  }
}
