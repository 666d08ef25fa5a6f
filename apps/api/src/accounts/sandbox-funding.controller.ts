import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FundSandboxAccountCommand } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { presentCredit } from '@app/read-models/accounts/account.presenter';
import { Ctx, SandboxOnly } from '../http/auth/auth.decorators';
import { FundAccountDto } from './accounts.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

@ApiTags('Accounts')
@Controller('sandbox/accounts')
export class SandboxFundingController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/fund')
  @SandboxOnly()
  @ApiRoute({
    id: 'sandboxFundAccount',
    summary: 'Sandbox: fund an account',
    description: 'Credits the account; fires inflows.completed and accounts.updated.',
    ok: { status: 201, schema: 'SandboxTransaction', description: 'The credit, settled' },
    errors: {
      403: 'Another entity’s account (forbidden)',
      404: 'No such account (account_not_found)',
      422: 'Another currency than the account’s (currency_mismatch), or past the balance bound (balance_limit_exceeded)',
    },
  })
  async fund(@Ctx() ctx: CommandContext, @Param('id') id: string, @Body() body: FundAccountDto) {
    return presentCredit(
      await this.commands.execute(
        new FundSandboxAccountCommand(ctx, id, { amount: body.amount, currency: body.currency }),
      ),
    );
  }
}
