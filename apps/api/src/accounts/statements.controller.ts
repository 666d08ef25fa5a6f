import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import type { CommandContext } from '@app/application/command-handling';
import { statementCsv } from '@app/read-models/accounts/statement-csv';
import { writeStatementPdf } from '@app/read-models/accounts/statement-pdf';
import { GetStatementQuery, readStatement } from '@app/read-models/accounts/statement-query';
import { Ctx } from '../http/auth/auth.decorators';
import { ApiRoute } from '../openapi/api-route.decorator';
import { ref } from '@app/read-models/schema-dsl';

/** The answers a statement has, JSON first: what a client that asks for nothing in particular gets. */
const MEDIA = ['application/json', 'text/csv', 'application/pdf'] as const;

/** `GET /accounts/{id}/statements/{YYYY-MM}` (decisions §17): one route, three representations chosen by `Accept`. */
@ApiTags('Accounts')
@Controller('accounts')
export class StatementsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/statements/:month')
  // ApiRoute gives an answer one schema for all its media types: each gets its own here (merged into ApiRoute's 200).
  @ApiResponse({
    status: 200,
    content: {
      'application/json': { schema: ref('Statement') },
      'text/csv': { schema: { type: 'string' } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiParam({
    name: 'month',
    description: 'A UTC calendar month, not in the future',
    schema: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
  })
  @ApiRoute({
    id: 'getAccountStatement',
    summary: 'A monthly account statement',
    description:
      'The month’s posted transactions oldest first with the balance after each, opening and closing balances, totals, and the signed checkpoint and inclusion proof of the last line (examples/verify-proof.mjs --statement). Accept: text/csv or application/pdf for the same statement as a file.',
    ok: {
      status: 200,
      mediaType: MEDIA,
      description: 'The statement: JSON, CSV (a row per line, then the totals as rows) or a PDF, by Accept',
    },
    errors: {
      400: 'A malformed month, or one in the future (validation_error)',
      403: 'Another entity’s account (forbidden)',
      404: 'No such account (account_not_found)',
    },
    readModel: true,
  })
  async get(
    @Ctx() { actor }: CommandContext,
    @Param('id') id: string,
    @Param('month') month: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const source = await this.queries.execute(new GetStatementQuery(actor, id, month));
    const type = req.accepts([...MEDIA]) || MEDIA[0];
    if (type === 'application/json') {
      res.json({ data: await readStatement(source) });
      return;
    }
    res.type(type).attachment(`statement-${id}-${month}.${type === 'text/csv' ? 'csv' : 'pdf'}`);
    // Streamed a page at a time; a failure once the body has begun can only cut the response short.
    if (type === 'text/csv') await pipeline(Readable.from(statementCsv(source)), res);
    else await writeStatementPdf(source, res);
  }
}
