import { Body, Controller, Get, Headers, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsString } from 'class-validator';
import type { Response } from 'express';
import { GetAuthenticationPageQuery, SubmitAuthenticationPageCommand, type AuthenticationPage } from '@app/application/collections';
import type { AuthenticationResult } from '@app/domain/collections';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { Public } from '../http/auth/auth.decorators';
import { Accepts } from '../http/media-types';
import { formToken, formTokenKey, ThreeDsFormGuard } from './three-ds.form';
import { pageHeaders, renderPage } from './three-ds.page';

/** What the page's forms send: the form token, nothing else (the guard has checked it already). */
export class ThreeDsFormDto {
  @IsString({ message: 'csrf_token must be a string' })
  csrf_token: string;
}

/** The page is the customer's, opened from `next_action.url` in a browser: no API key. */
@Controller('3ds')
@Public()
@Accepts('form', 'json')
export class ThreeDsController {
  private readonly tokenKey: Buffer;

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    this.tokenKey = formTokenKey(config.masterKey);
  }

  @Get(':id')
  async page(@Param('id') id: string, @Res() res: Response) {
    this.send(res, id, await this.queries.execute(new GetAuthenticationPageQuery(id)));
  }

  @Post(':id/approve')
  @UseGuards(ThreeDsFormGuard)
  approve(@Param('id') id: string, @Body() _form: ThreeDsFormDto, @Headers('x-request-id') requestId: string, @Res() res: Response) {
    return this.submit(id, 'success', requestId, res);
  }

  @Post(':id/fail')
  @UseGuards(ThreeDsFormGuard)
  fail(@Param('id') id: string, @Body() _form: ThreeDsFormDto, @Headers('x-request-id') requestId: string, @Res() res: Response) {
    return this.submit(id, 'failure', requestId, res);
  }

  /** Decided: 303 to `return_url` with the decided query; otherwise the page says why not. */
  private async submit(id: string, result: AuthenticationResult, requestId: string, res: Response) {
    const outcome = await this.commands.execute(new SubmitAuthenticationPageCommand(id, result, requestId));
    if (outcome.redirect) {
      // The merchant's page is not told where the customer came from.
      res.set({ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' }).redirect(303, outcome.redirect);
      return;
    }
    this.send(res, id, outcome);
  }

  private send(res: Response, id: string, page: AuthenticationPage) {
    res.status(page.state === 'not_found' ? 404 : page.state === 'open' ? 200 : 409);
    res.set(pageHeaders(page));
    res.send(renderPage(page, formToken(this.tokenKey, id)));
  }
}
