import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsOptional, Matches } from 'class-validator';
import type { CommandContext } from '@app/application/command-handling';
import { ListAccountTransactionsQuery } from '@app/read-models/accounts/list-account-transactions.query';
import { presentStatementEntry, STATEMENT_CURSOR } from '@app/read-models/accounts/statement.projection';
import { Ctx } from '../http/auth/auth.decorators';
import { LimitField, styleA } from '../http/pagination';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref, styleAList } from '@app/read-models/schema-dsl';

/** Style A (`limit`, `cursor`); entry ids are longer than resource ids, so the cursor has its own pattern. */
export class StatementPageDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @LimitField()
  limit?: number;

  @ApiPropertyOptional({ description: 'meta.pagination.next_cursor of the previous page' })
  @IsOptional()
  @Matches(STATEMENT_CURSOR, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

@ApiTags('Accounts')
@Controller('accounts')
export class StatementController {
  constructor(private readonly queries: QueryBus) {}

  /** Newest first; each entry carries the balance after it, so a page reconciles on its own. */
  @Get(':id/transactions')
  @ApiRoute({
    id: 'listAccountTransactions',
    summary: 'The account statement',
    description: 'Credits, holds, debits, releases and reversals, newest first, each with the balance after it.',
    ok: { status: 200, schema: styleAList(ref('AccountTransaction')), description: 'Entries, newest first' },
    errors: { 403: 'Another entity’s account (forbidden)', 404: 'No such account (account_not_found)' },
    readModel: true,
  })
  async list(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: StatementPageDto) {
    const page = await this.queries.execute(
      new ListAccountTransactionsQuery(ctx.actor, id, { limit: query.limit ?? 20, before: query.cursor }),
    );
    return styleA(page, presentStatementEntry);
  }
}
