import { Body, Controller, Get, Inject, Param, Post, Query } from '@nestjs/common';
import { balanceOf } from '@app/domain/accounts';
import { AccountsService } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { Ctx } from '../http/auth/auth.decorators';
import { entityScope, optionalEntityScope } from '../http/entity-scope';
import { styleA, styleAQuery } from '../http/pagination';
import type { AccountDocument } from '@app/read-models/accounts/account.projection';
import { accountView, presentAccount } from '@app/read-models/accounts/account.presenter';
import { CreateAccountDto, ListAccountsQuery } from './accounts.dto';

@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  @Post()
  async open(@Ctx() ctx: CommandContext, @Body() body: CreateAccountDto) {
    const entityId = entityScope(ctx.actor, body.entity_id);
    const state = await this.accounts.open(ctx, {
      entity_id: entityId,
      type: body.type ?? 'checking',
      currency: body.currency,
      display_name: body.display_name ?? `${body.currency} account`,
    });
    return presentAccount(accountView(state, balanceOf(state)));
  }

  /** Lists trail the log by milliseconds; GET /accounts/{id} is the read-your-writes path. */
  @Get()
  async list(@Ctx() ctx: CommandContext, @Query() query: ListAccountsQuery) {
    const filter = {
      organization_id: ctx.actor.organizationId,
      entity_id: optionalEntityScope(ctx.actor, query.entity_id),
      currency: query.currency,
    };
    const page = await this.readStore.find<AccountDocument>('accounts', styleAQuery(query, filter));
    return styleA(page, presentAccount);
  }

  @Get(':id')
  async get(@Ctx() ctx: CommandContext, @Param('id') id: string) {
    const state = await this.accounts.get(ctx, id);
    return presentAccount(accountView(state, balanceOf(state)));
  }
}
