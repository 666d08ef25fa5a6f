import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { IssueAccountDetailsCommand } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { presentAccountDetails } from '@app/read-models/accounts/account.presenter';
import { Ctx } from '../http/auth/auth.decorators';
import { CreateAccountDetailsDto } from './accounts.dto';

@Controller('account-details')
export class AccountDetailsController {
  constructor(private readonly commands: CommandBus) {}

  /** 201 the first time for an account and rail; 200 with the same record afterwards (decisions §4). */
  @Post()
  async issue(@Ctx() ctx: CommandContext, @Body() body: CreateAccountDetailsDto, @Res({ passthrough: true }) res: Response) {
    const { details, created } = await this.commands.execute(new IssueAccountDetailsCommand(ctx, body));
    res.status(created ? 201 : 200);
    return presentAccountDetails(details);
  }
}
