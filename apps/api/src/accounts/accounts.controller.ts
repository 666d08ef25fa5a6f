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
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

const presentState = (state: OpenAccountState) => presentAccount(accountView(state, balanceOf(state)));

@ApiTags('Accounts')
@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiRoute({
    id: 'createAccount',
    summary: 'Open an account',
    ok: { status: 201, schema: 'Account', description: 'The account, balances zero' },
    errors: {
      403: 'Another entity, with an entity token (forbidden)',
      404: 'No such entity (entity_not_found)',
      422: 'The entity is not approved (entity_not_approved), or the currency has no rail (rail_not_supported)',
    },
  })
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
  @ApiRoute({
    id: 'listAccounts',
    summary: 'List accounts',
    ok: { status: 200, schema: styleAList(ref('Account')), description: 'Accounts, newest first' },
    errors: { 403: 'Another entity’s, with an entity token (forbidden)' },
    readModel: true,
  })
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
  @ApiRoute({
    id: 'getAccount',
    summary: 'Retrieve an account',
    description: 'Balances included: available = current − holds.',
    ok: { status: 200, schema: 'Account', description: 'The account' },
    errors: {
      400: 'A malformed as_of (validation_error)',
      403: 'Another entity’s (forbidden)',
      404: 'No such account, or none yet at as_of (account_not_found)',
    },
  })
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    return presentState(await this.queries.execute(new GetAccountQuery(ctx.actor, id)));
  }
}
