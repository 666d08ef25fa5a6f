import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { isOperatorToken } from '../admin/operator.guard';
import { ApiMetrics } from './api-metrics';

const isLoopback = (address: string | undefined): boolean =>
  Boolean(address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback');

/**
 * Issue 32 item 10: on the API's public port the metrics (the ledger's totals among them) are for
 * the operator: its token when PAYMENTS_ADMIN_TOKEN is set, otherwise this machine only (npm start
 * on a laptop, the tests); any other caller gets the unknown route's 404. METRICS_PORT serves them
 * on a port of their own instead (the controller answers 404 here then).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly metrics: ApiMetrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    // With METRICS_PORT the route is an unknown one here, whoever asks (the controller says so).
    if (!this.metrics.onApiPort) return true;
    if (this.config.adminToken) {
      if (isOperatorToken(this.config, req.headers.authorization)) return true;
      throw new DomainException(
        domainError(
          'unauthorized',
          'unauthorized',
          'GET /metrics on this port needs Authorization: Bearer <PAYMENTS_ADMIN_TOKEN>',
        ),
      );
    }
    if (isLoopback(req.socket.remoteAddress)) return true;
    throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
  }
}
