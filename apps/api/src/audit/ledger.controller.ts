import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { IsOptional } from 'class-validator';
import type { CommandContext } from '@app/application/command-handling';
import { GetLedgerQuery } from '@app/application/ledger';
import { ApiKeyOnly, Ctx } from '../http/auth/auth.decorators';
import { parseAsOf } from './as-of.interceptor';

/** `as_of` is the only parameter; parseAsOf refuses anything but a string of decisions §10 (400). */
export class LedgerQueryDto {
  @IsOptional() as_of?: unknown;
}

/** The caller's ledger (decisions §12): API key only, its own organization and mode. */
@Controller()
@ApiKeyOnly()
export class LedgerController {
  constructor(private readonly queries: QueryBus) {}

  @Get('ledger')
  async ledger(@Ctx() { actor }: CommandContext, @Query() q: LedgerQueryDto) {
    return { data: await this.queries.execute(new GetLedgerQuery(actor.organizationId, actor.mode, q.as_of === undefined ? null : parseAsOf(q.as_of))) };
  }
}
