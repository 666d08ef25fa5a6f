import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { domainError } from '@app/domain';
import { ApiKeysService, actorForKey, EntityTokensService } from '@app/application/access';
import { DomainException, actorLabel, type Actor } from '@app/application/command-handling';
import { assignRequestLog } from '@app/platform/logging/logger';
import { ApiRateLimitGuard } from '../rate-limit/api-rate-limit.guard';
import { echoKeyVersion } from '../api-version.middleware';
import { API_KEY_ONLY, PUBLIC_ROUTE, SANDBOX_ONLY, type AuthenticatedRequest } from './auth.decorators';

const unauthorized = (message: string) => new DomainException(domainError('unauthorized', 'unauthorized', message));

/**
 * Resolves `Authorization: Bearer …` to an actor on every route that is not public, then meters
 * that caller's rate limit: here rather than as a second global guard, whose order would be implicit.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly tokens: EntityTokensService,
    private readonly rateLimit: ApiRateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const flag = (key: string) =>
      this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]);
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Node keeps the first of two Authorization headers and drops the other: a proxy reading the
    // last one would disagree about who is calling, so two are refused (decisions §2), public routes included.
    if (authorizationHeaders(req.rawHeaders) > 1) {
      throw new DomainException(
        domainError('validation', 'invalid_request', 'The request has more than one Authorization header; send one'),
      );
    }
    if (flag(PUBLIC_ROUTE)) return true;
    const actor = await this.authenticate(req.headers.authorization);
    req.actor = actor;
    // Every later line of this request (and its completion line) names who and for whom.
    assignRequestLog({ actor: actorLabel(actor), organization_id: actor.organizationId, mode: actor.mode });
    // Payments-Version: the key's pinned version unless the request named one (issue 32 item 5).
    echoKeyVersion(req, context.switchToHttp().getResponse());
    await this.rateLimit.canActivate(context);
    if (flag(API_KEY_ONLY) && actor.kind !== 'api_key') {
      throw new DomainException(
        domainError('forbidden', 'forbidden', 'This operation needs an API key, not an entity token'),
      );
    }
    if (flag(SANDBOX_ONLY) && actor.mode !== 'sandbox') {
      throw new DomainException(
        domainError('forbidden', 'sandbox_only', 'This operation needs a sandbox (sk_test_) key'),
      );
    }
    return true;
  }

  private async authenticate(header: string | undefined): Promise<Actor> {
    // The scheme is case-insensitive and followed by one or more spaces (RFC 9110 §11.1, §11.4).
    const match = /^Bearer +([A-Za-z0-9_]{8,200})$/i.exec(header ?? '');
    if (!match)
      throw unauthorized(
        header ? 'The Authorization header must be "Bearer <API key>"' : 'Missing Authorization header',
      );
    const credential = match[1];
    if (credential.startsWith('etk_')) {
      const actor = await this.tokens.resolve(credential);
      if (!actor) throw unauthorized('The entity token is unknown, expired or revoked');
      return actor;
    }
    const key = await this.apiKeys.resolve(credential);
    if (!key) throw unauthorized('The API key is unknown, malformed or revoked');
    return actorForKey(key);
  }
}

/** How many Authorization header lines the request had (rawHeaders alternates names and values). */
function authorizationHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'authorization') count++;
  return count;
}
