import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { IssueAccountDetailsCommand } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { presentAccountDetails } from '@app/read-models/accounts/account.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { CreateAccountDetailsDto } from './accounts.dto';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

@ApiTags('Accounts')
@Controller('account-details')
export class AccountDetailsController {
  constructor(private readonly commands: CommandBus) {}

  /** 201 the first time for an account and rail; 200 with the same record afterwards (decisions §4). */
  @Post()
  @ApiRoute({
    id: 'createAccountDetails',
    summary: 'Issue account details',
    description: 'The bank coordinates of an account on a rail; once per account and rail.',
    ok: [
      { status: 201, schema: 'AccountDetails', description: 'Issued now' },
      {
        status: 200,
        schema: 'AccountDetails',
        description: 'Issued before for this account and rail: the same record',
      },
    ],
    errors: {
      403: 'Another entity’s account (forbidden)',
      404: 'No such account (account_not_found)',
      422: 'The rail does not fit the account (rail_not_supported, asset_type_mismatch)',
    },
  })
  async issue(
    @Ctx() ctx: CommandContext,
    @Body() body: CreateAccountDetailsDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { details, created } = await this.commands.execute(new IssueAccountDetailsCommand(ctx, body));
    res.status(created ? 201 : 200);
    return presentAccountDetails(details);
  }
}
