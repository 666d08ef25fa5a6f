import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { LookupCounterpartyQuery } from '@app/application/counterparties';
import type { CommandContext } from '@app/application/command-handling';
import { Ctx } from '../http/auth/auth.decorators';
import { optionalEntityScope } from '../http/entity-scope';
import { CounterpartyLookupDto } from './counterparty-lookup.dto';
import { presentLookup } from '@app/read-models/counterparties/counterparty.presenter';

@Controller('counterparty-lookups')
export class CounterpartyLookupsController {
  constructor(private readonly queries: QueryBus) {}

  /** Creates nothing, so 200 (decisions §5). */
  @Post()
  @HttpCode(200)
  async lookup(@Ctx() ctx: CommandContext, @Body() body: CounterpartyLookupDto) {
    optionalEntityScope(ctx.actor, body.entity_id);
    const { currency, country, account_number, issuer } = body;
    return presentLookup(await this.queries.execute(new LookupCounterpartyQuery({ currency, country, account_number, issuer: { code: issuer.code, scheme: issuer.scheme } })));
  }
}
