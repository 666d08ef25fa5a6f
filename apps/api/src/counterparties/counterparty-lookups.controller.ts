import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { LookupCounterpartyQuery } from '@app/application/counterparties';
import type { CommandContext } from '@app/application/command-handling';
import { Ctx } from '../http/auth/auth.decorators';
import { optionalEntityScope } from '../http/entity-scope';
import { CounterpartyLookupDto } from './counterparty-lookup.dto';
import { presentLookup } from '@app/read-models/counterparties/counterparty.presenter';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

@ApiTags('Counterparties')
@Controller('counterparty-lookups')
export class CounterpartyLookupsController {
  constructor(private readonly queries: QueryBus) {}

  /** Creates nothing, so 200 (decisions §5). */
  @Post()
  @HttpCode(200)
  @ApiRoute({
    id: 'lookupCounterparty',
    summary: 'Look up account coordinates',
    description: 'Validates coordinates against their scheme and names the holder and bank; creates nothing.',
    ok: { status: 200, schema: 'CounterpartyLookup', description: 'Valid coordinates' },
    errors: {
      403: 'Another entity, with an entity token (forbidden)',
      422: 'The coordinates fail their scheme’s checks (invalid_account_details)',
    },
  })
  async lookup(@Ctx() ctx: CommandContext, @Body() body: CounterpartyLookupDto) {
    optionalEntityScope(ctx.actor, body.entity_id);
    const { currency, country, account_number, issuer } = body;
    return presentLookup(
      await this.queries.execute(
        new LookupCounterpartyQuery({
          currency,
          country,
          account_number,
          issuer: { code: issuer.code, scheme: issuer.scheme },
        }),
      ),
    );
  }
}
