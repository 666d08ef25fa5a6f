import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { Actor, CommandContext } from '@app/application/command-handling';

export const PUBLIC_ROUTE = 'auth:public';
export const API_KEY_ONLY = 'auth:api-key-only';
export const SANDBOX_ONLY = 'auth:sandbox-only';

/** No credential needed (health). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
/** Entity tokens are refused with 403: keys, entities and tokens are created with an API key only. */
export const ApiKeyOnly = () => SetMetadata(API_KEY_ONLY, true);
/** Live keys are refused with 403 (decisions §1). */
export const SandboxOnly = () => SetMetadata(SANDBOX_ONLY, true);

export type AuthenticatedRequest = Request & { actor?: Actor };

/** The command context of this request: who acts, and the request id for correlation. */
export const Ctx = createParamDecorator((_: unknown, host: ExecutionContext): CommandContext => {
  const req = host.switchToHttp().getRequest<AuthenticatedRequest>();
  const requestId = String(req.headers['x-request-id']);
  return { actor: req.actor!, correlationId: requestId, causationId: requestId };
});
