import { Controller, Get, NotFoundException, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../http/auth/auth.decorators';
import { ApiMetrics } from './api-metrics';
import { MetricsAccessGuard } from './metrics-access.guard';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

/**
 * `GET /metrics`, Prometheus's text format, without a key (scrapers carry none): on the API's port
 * when no `METRICS_PORT` is set (`npm start`, tests); with it, only on that port, and this route
 * answers as an unknown one (docs/decisions/infrastructure.md, "Operations").
 */
@ApiTags('Platform')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @Get()
  @Public()
  // On this port, for the operator (issue 32 item 10): its token, or this machine without one.
  @UseGuards(MetricsAccessGuard)
  @ApiRoute({
    id: 'getMetrics',
    summary: 'Prometheus metrics',
    ok: [
      { status: 200, mediaType: 'text/plain', description: 'The Prometheus text exposition format' },
      {
        status: 401,
        schema: 'Error',
        description: 'PAYMENTS_ADMIN_TOKEN is set and the request does not carry it (unauthorized)',
      },
    ],
    errors: {
      404: 'METRICS_PORT is set: the metrics are served on that port only; or neither it nor PAYMENTS_ADMIN_TOKEN is, and the caller is not this machine (not_found)',
    },
  })
  async scrape(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.metrics.onApiPort) throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
    const body = await this.metrics.text();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return body;
  }
}
