import { Controller, Get, Headers, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { GetAuthenticationPageQuery, SubmitAuthenticationPageCommand, type AuthenticationPage } from '@app/application/collections';
import type { AuthenticationResult } from '@app/domain/collections';
import { Public } from '../http/auth/auth.decorators';
import { renderPage } from './three-ds.page';

/** The page is the customer's, opened from `next_action.url` in a browser: no API key. */
@Controller('3ds')
@Public()
export class ThreeDsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':id')
  async page(@Param('id') id: string, @Res() res: Response) {
    send(res, await this.queries.execute(new GetAuthenticationPageQuery(id)));
  }

  @Post(':id/approve')
  approve(@Param('id') id: string, @Headers('x-request-id') requestId: string, @Res() res: Response) {
    return this.submit(id, 'success', requestId, res);
  }

  @Post(':id/fail')
  fail(@Param('id') id: string, @Headers('x-request-id') requestId: string, @Res() res: Response) {
    return this.submit(id, 'failure', requestId, res);
  }

  /** Decided: 303 to `return_url` with the decided query; otherwise the page says why not. */
  private async submit(id: string, result: AuthenticationResult, requestId: string, res: Response) {
    const outcome = await this.commands.execute(new SubmitAuthenticationPageCommand(id, result, requestId));
    if (outcome.redirect) {
      res.redirect(303, outcome.redirect);
      return;
    }
    send(res, outcome);
  }
}

function send(res: Response, page: AuthenticationPage) {
  res.status(page.state === 'not_found' ? 404 : page.state === 'open' ? 200 : 409);
  res.set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
  res.send(renderPage(page));
}
