import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { notFound } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import { DomainException, loadAggregate, type CommandContext } from '@app/application/command-handling';
import { accountStream, isAccountId } from '@app/application/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '@app/platform/read-store/read-store.port';
import { Ctx } from '../http/auth/auth.decorators';
import { styleA } from '../http/pagination';
import { presentStatementEntry, STATEMENT_CURSOR, type StatementEntry } from '@app/read-models/accounts/statement.projection';

const LIMIT = 'limit must be an integer between 1 and 100';

/** Style A (`limit`, `cursor`); entry ids are longer than resource ids, so the cursor has its own pattern. */
export class StatementQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: LIMIT })
  @Min(1, { message: LIMIT })
  @Max(100, { message: LIMIT })
  limit?: number;

  @IsOptional()
  @Matches(STATEMENT_CURSOR, { message: 'cursor must be a next_cursor returned by a previous page' })
  cursor?: string;
}

@Controller('accounts')
export class StatementController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  /** Newest first; each entry carries the balance after it, so a page reconciles on its own. */
  @Get(':id/transactions')
  async list(@Ctx() ctx: CommandContext, @Param('id') id: string, @Query() query: StatementQuery) {
    // Tenancy as for the account itself: another organization's is not found, another entity's forbidden.
    const account = isAccountId(id) ? await loadAggregate(this.store, accountStream(id), accountDecider, ctx) : null;
    if (!account) throw new DomainException(notFound('account', id));
    const page = await this.readStore.find<StatementEntry>('account_transactions', { filter: { account_id: id }, limit: query.limit ?? 20, before: query.cursor });
    return styleA(page, presentStatementEntry);
  }
}
