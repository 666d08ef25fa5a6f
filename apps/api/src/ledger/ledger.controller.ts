import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Header, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '@app/application/command-handling';
import { GetLedgerQuery, type LedgerPoint } from '@app/read-models/ledger';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { AsOfField } from '../audit/as-of.interceptor';
import { exactJson, JSON_CONTENT_TYPE } from './exact-json';
import { ApiRoute } from '../openapi/api-route.decorator';

/** `as_of` is the only parameter; AsOfField refuses anything but a string of decisions §10 (400). */
export class LedgerQueryDto {
  @ApiPropertyOptional({ type: 'string', description: 'An ISO 8601 date-time, a Unix ms integer, or position:N' })
  @AsOfField()
  as_of?: LedgerPoint;
}

/** The caller's ledger (decisions §12): API key only, its own organization and mode. */
@ApiTags('Audit')
@Controller()
@ApiKeyOnly()
export class LedgerController {
  constructor(private readonly queries: QueryBus) {}

  @Get('ledger')
  @ApiRoute({
    id: 'getLedger',
    summary: 'The books of the caller’s organization and mode',
    description: 'Double-entry: every currency balances, Σ debits = Σ credits, posted and pending.',
    ok: { status: 200, schema: 'Ledger', description: 'The ledger' },
    errors: { 400: 'A malformed as_of (validation_error)' },
  })
  // Sums may pass 2^53: the body is written with every digit (exact-json.ts).
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async ledger(@Ctx() { actor }: CommandContext, @Query() q: LedgerQueryDto): Promise<string> {
    return exactJson({
      data: await this.queries.execute(new GetLedgerQuery(actor.organizationId, actor.mode, q.as_of ?? null)),
    });
  }
}
