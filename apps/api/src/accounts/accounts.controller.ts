import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { balanceOf, type OpenAccountState } from '@app/domain/accounts';
import { GetAccountQuery, OpenAccountCommand } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { accountView, presentAccount } from '@app/read-models/accounts/account.presenter';
import { ListAccountsQuery } from '@app/read-models/accounts/list-accounts.query';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope, optionalEntityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import { CreateAccountDto, ListAccountsDto } from './accounts.dto';
import { AsOf } from '../audit/as-of.interceptor';

const presentState = (state: OpenAccountState) => presentAccount(accountView(state, balanceOf(state)));

@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  async open(@Ctx() ctx: CommandContext, @Body() body: CreateAccountDto) {
    const input = {
      entity_id: entityScope(ctx.actor, body.entity_id),
      type: body.type ?? 'checking',
      currency: body.currency,
      display_name: body.display_name ?? `${body.currency} account`,
    };
    return presentState(await this.commands.execute(new OpenAccountCommand(ctx, input)));
  }

  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListAccountsDto) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      mode: ctx.actor.mode,
      entity_id: optionalEntityScope(ctx.actor, query.entity_id),
      currency: query.currency,
    };
    return styleA(await this.queries.execute(new ListAccountsQuery(filter, styleAQuery(query))), presentAccount);
  }

  @Get(':id')
  @AsOf()
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentState(await this.queries.execute(new GetAccountQuery(ctx.actor, id)));
  }
}
