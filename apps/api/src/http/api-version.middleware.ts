import type { NextFunction, Request, Response } from 'express';
import { CURRENT_API_VERSION, domainError, isApiVersion } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import type { KeyActor } from '@app/application/access';

export const API_VERSION_HEADER = 'Payments-Version';

/**
 * Issue 32 item 5, as Stripe does: a request may name a dated version in `Payments-Version`; an
 * unknown one is refused before anything runs (400 `invalid_api_version`, a code of its own so a
 * client can tell a typo from a bad body). Every answer says which version it was made under:
 * the header's, else the current one here, replaced by the key's pinned version once the caller is
 * known (`echoKeyVersion`, after authentication).
 */
export function apiVersion(req: Request, res: Response, next: NextFunction): void {
  const asked = req.headers['payments-version'];
  if (asked !== undefined) {
    const value = Array.isArray(asked) ? asked.join(',') : asked.trim();
    if (!isApiVersion(value)) {
      res.setHeader(API_VERSION_HEADER, CURRENT_API_VERSION);
      const message = `Payments-Version ${JSON.stringify(value.slice(0, 40))} is not a version of this API; the current one is ${CURRENT_API_VERSION}`;
      throw new DomainException(
        domainError('validation', 'invalid_api_version', message, { errors: [{ field: API_VERSION_HEADER, message }] }),
      );
    }
    res.setHeader(API_VERSION_HEADER, value);
  } else {
    res.setHeader(API_VERSION_HEADER, CURRENT_API_VERSION);
  }
  next();
}

/** The version a caller's answers are made under: the request's header, else its key's pinned version. */
export function echoKeyVersion(req: Request & { actor?: Partial<KeyActor> }, res: Response): void {
  if (req.headers['payments-version'] === undefined && req.actor?.apiVersion)
    res.setHeader(API_VERSION_HEADER, req.actor.apiVersion);
}
