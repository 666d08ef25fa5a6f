import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { Public } from '../http/auth/auth.decorators';
import { DashboardFiles } from './dashboard-files';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/**
 * The page's policy: its own scripts, styles and API only; no inline script or style, no eval, no
 * other origin, no framing, no form posting anywhere (sign-in is handled by the script), and
 * Trusted Types, so a string can never become HTML: everything the API returns (a webhook
 * receiver's response body included) is text on the page.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/**
 * `/dashboard` (docs/decisions/infrastructure.md, "Dashboard and listen"): the built single page
 * and its hashed assets, from local files. Public like `/health`: the page holds no data; it asks
 * for an API key and calls the API with it.
 */
@ApiTags('Platform')
@Controller('dashboard')
@Public()
export class DashboardController {
  constructor(private readonly files: DashboardFiles) {}

  @Get()
  @ApiRoute({
    id: 'getDashboard',
    summary: 'The dashboard (a web app)',
    ok: { status: 200, mediaType: 'text/html', description: 'The page' },
    errors: { 404: 'The dashboard is not built (dashboard_not_built): npm run build writes it' },
  })
  async page(@Res() res: Response): Promise<void> {
    const page = await this.files.index();
    if (!page)
      throw new DomainException(
        domainError(
          'not_found',
          'dashboard_not_built',
          'The dashboard is not built: run npm run build (it writes dist/dashboard), or point DASHBOARD_DIR at a build',
        ),
      );
    res
      .status(200)
      .set({
        ...COMMON_HEADERS,
        'content-type': page.type,
        'content-security-policy': DASHBOARD_CSP,
        'cache-control': 'no-store',
      })
      .send(page.body);
  }

  /** Names carry their content hash, so a file never changes under its name. */
  @Get('assets/:file')
  @ApiRoute({
    id: 'getDashboardAsset',
    summary: 'An asset of the dashboard',
    ok: {
      status: 200,
      mediaType: ['text/javascript', 'text/css', 'image/svg+xml'],
      description: 'A script, style sheet or image of the dashboard',
    },
    errors: { 404: 'No such asset (not_found)' },
  })
  async asset(@Param('file') name: string, @Res() res: Response): Promise<void> {
    const file = await this.files.asset(name);
    if (!file) throw new DomainException(domainError('not_found', 'not_found', `No dashboard file ${name}`));
    res
      .status(200)
      .set({ ...COMMON_HEADERS, 'content-type': file.type, 'cache-control': 'public, max-age=31536000, immutable' })
      .send(file.body);
  }
}
