import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { assignRequestLog } from '@app/platform/logging/logger';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the operator token (false when none is configured). */
export function isOperatorToken(config: PlatformConfig, authorization: string | undefined): boolean {
  if (!config.adminToken) return false;
  const sent = /^Bearer +(\S{1,512})$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(config.adminToken));
}

/**
 * The operator API's only credential: `Authorization: Bearer $PAYMENTS_ADMIN_TOKEN` (decisions §11).
 * Unset, every /admin route answers exactly as an unknown route does, so its existence leaks nothing.
 * Compared as SHA-256 digests in constant time (equal lengths whatever was sent); nothing is stored.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.config.adminToken) throw new NotFoundException(`Cannot ${req.method} ${req.path}`);
    if (!isOperatorToken(this.config, req.headers.authorization)) {
      throw new DomainException(
        domainError(
          'unauthorized',
          'unauthorized',
          'The operator API needs Authorization: Bearer <PAYMENTS_ADMIN_TOKEN>',
        ),
      );
    }
    assignRequestLog({ actor: 'operator' });
    return true;
  }
}
