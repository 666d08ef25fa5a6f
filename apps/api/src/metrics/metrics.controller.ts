import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { isOperatorToken } from '../admin/operator.guard';
import type { Request, Response } from 'express';
import { Public } from '../http/auth/auth.decorators';
import { ApiMetrics } from './api-metrics';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-route.decorator';

const isLoopback = (address: string | undefined): boolean => Boolean(address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback');

/**
 * `GET /metrics`, Prometheus's text format, without a key (scrapers carry none): on the API's port
 * when no `METRICS_PORT` is set (`npm start`, tests); with it, only on that port, and this route
 * answers as an unknown one (docs/decisions/infrastructure.md, "Operations").
 */
@ApiTags('Platform')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: ApiMetrics,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Get()
  @Public()
  @ApiRoute({
    id: 'getMetrics',
    summary: 'Prometheus metrics',
    ok: [
      { status: 200, mediaType: 'text/plain', description: 'The Prometheus text exposition format' },
      { status: 401, schema: 'Error', description: 'PAYMENTS_ADMIN_TOKEN is set and the request does not carry it (unauthorized)' },
    ],
    errors: {
      404: 'METRICS_PORT is set: the metrics are served on that port only; or neither it nor PAYMENTS_ADMIN_TOKEN is, and the caller is not this machine (not_found)',
    },
  })
  async scrape(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    if (!this.metrics.onApiPort) throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
    // Issue 32 item 10: on the public port the ledger's totals are for the operator: its token when
    // one is configured, otherwise this machine only (npm start, tests); set METRICS_PORT to scrape freely on another port.
    if (this.config.adminToken) {
      if (!isOperatorToken(this.config, req.headers.authorization))
        throw new DomainException(domainError('unauthorized', 'unauthorized', 'GET /metrics on this port needs Authorization: Bearer <PAYMENTS_ADMIN_TOKEN>'));
    } else if (!isLoopback(req.socket.remoteAddress)) {
      throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
    }
    const body = await this.metrics.text();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    return body;
  }
}
