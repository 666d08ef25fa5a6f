import { ApiConsumes, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Get, Headers, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsString } from 'class-validator';
import type { Response } from 'express';
import {
  GetAuthenticationPageQuery,
  SubmitAuthenticationPageCommand,
  type AuthenticationPage,
} from '@app/application/collections';
import type { AuthenticationResult } from '@app/domain/collections';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { Public } from '../http/auth/auth.decorators';
import { Accepts } from '../http/media-types';
import { formToken, formTokenKey, ThreeDsFormGuard } from './three-ds.form';
import { pageHeaders, renderPage } from './three-ds.page';
import { ApiRoute } from '../openapi/api-route.decorator';

/** What the page's forms send: the form token, nothing else (the guard has checked it already). */
export class ThreeDsFormDto {
  @ApiProperty({ description: 'The form token the page carries' })
  @IsString({ message: 'csrf_token must be a string' })
  csrf_token: string;
}

/** Both buttons of the page answer alike. */
const BUTTON_ANSWERS = {
  ok: [
    {
      status: 303,
      description: 'Decided: to return_url with payment_intent_id, intent_action_id and status in the query',
      headers: { Location: { description: 'return_url with the decided query', required: true } },
    },
    { status: 404, mediaType: 'text/html', description: 'No such action: the page says so' },
    { status: 409, mediaType: 'text/html', description: 'Decided or expired: the page says so' },
  ],
  errors: {
    403: 'Not the page’s own form: another origin or a wrong form token (cross_site_request, invalid_form_token)',
  },
};

/** The page is the customer's, opened from `next_action.url` in a browser: no API key. */
@ApiTags('Collections')
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
  @ApiRoute({
    id: 'getThreeDsPage',
    summary: 'The 3-D Secure page (opened by the customer)',
    description:
      'next_action.url: an HTML page whose buttons complete or fail the authentication. No credential: the unguessable action id is one.',
    ok: [
      { status: 200, mediaType: 'text/html', description: 'The page, waiting for the customer' },
      { status: 404, mediaType: 'text/html', description: 'No such action: the page says so' },
      { status: 409, mediaType: 'text/html', description: 'Decided or expired: the page says so' },
    ],
  })
  async page(@Param('id') id: string, @Res() res: Response) {
    this.send(res, id, await this.queries.execute(new GetAuthenticationPageQuery(id)));
  }

  @Post(':id/approve')
  @UseGuards(ThreeDsFormGuard)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiRoute({
    id: 'approveThreeDs',
    summary: 'The 3-D Secure page’s “complete” button',
    ...BUTTON_ANSWERS,
  })
  approve(
    @Param('id') id: string,
    @Body() _form: ThreeDsFormDto,
    @Headers('x-request-id') requestId: string,
    @Res() res: Response,
  ) {
    return this.submit(id, 'success', requestId, res);
  }

  @Post(':id/fail')
  @UseGuards(ThreeDsFormGuard)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiRoute({
    id: 'failThreeDs',
    summary: 'The 3-D Secure page’s “fail” button',
    ...BUTTON_ANSWERS,
  })
  fail(
    @Param('id') id: string,
    @Body() _form: ThreeDsFormDto,
    @Headers('x-request-id') requestId: string,
    @Res() res: Response,
  ) {
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
