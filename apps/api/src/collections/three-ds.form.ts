import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { domainError } from '@app/domain';
import { DomainException } from '@app/application/command-handling';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';

/** The hidden field of the page's two forms. */
export const FORM_TOKEN_FIELD = 'csrf_token';

/**
 * The key of the 3-D Secure page's form tokens, derived (HKDF-SHA256, its own label) from the
 * platform master key every API process already shares (PAYMENTS_MASTER_KEY, or DATA_DIR/master.key
 * when embedded): any process checks a token another issued, across restarts, and nothing is
 * written to the log. The master key itself never signs anything.
 */
export function formTokenKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'payments/3ds-page/form-token/v1', 32));
}

/** HMAC-SHA256 of the intent action id: one token per action, shown only inside the page. */
export const formToken = (key: Buffer, intentActionId: string): string =>
  createHmac('sha256', key).update(`3ds-page:${intentActionId}`).digest('base64url');

export function isFormToken(key: Buffer, intentActionId: string, candidate: unknown): boolean {
  if (typeof candidate !== 'string') return false;
  const expected = Buffer.from(formToken(key, intentActionId));
  const given = Buffer.from(candidate);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Why a POST is not from the page itself, or null. `Sec-Fetch-Site` (every current browser sends
 * it) must be `same-origin`, or `none` for one the user started; `Origin`, when it names one, must
 * be the public base URL's or the request's own host. `Origin: null` says nothing: browsers send it
 * for our own forms, because the page's Referrer-Policy is no-referrer. Requests without either
 * header (not from a browser) still need the form token.
 */
export function crossSiteReason(headers: Headers, publicBaseUrl: string): string | null {
  const site = header(headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is ${site}`;
  const origin = header(headers, 'origin');
  if (origin === undefined || origin === 'null') return null;
  if (!URL.canParse(origin)) return 'Origin is not an origin';
  const from = new URL(origin);
  const ownHost = header(headers, 'host');
  if (from.origin === new URL(publicBaseUrl).origin || (ownHost !== undefined && from.host === ownHost.toLowerCase()))
    return null;
  return `Origin ${from.origin} is another site`;
}

/**
 * Before anything else on the page's POSTs: a cross-site request or a missing or wrong form token
 * answers 403 in the error envelope and acts on nothing (no read, no write).
 */
@Injectable()
export class ThreeDsFormGuard implements CanActivate {
  private readonly key: Buffer;

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {
    this.key = formTokenKey(config.masterKey);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const crossSite = crossSiteReason(req.headers, this.config.publicBaseUrl);
    if (crossSite) {
      throw new DomainException(
        domainError(
          'forbidden',
          'cross_site_request',
          `The 3-D Secure page only accepts its own form submissions (${crossSite})`,
        ),
      );
    }
    const body: unknown = req.body;
    const token = body && typeof body === 'object' ? (body as Record<string, unknown>)[FORM_TOKEN_FIELD] : undefined;
    if (!isFormToken(this.key, String(req.params.id), token)) {
      throw new DomainException(
        domainError(
          'forbidden',
          'invalid_form_token',
          `The form's ${FORM_TOKEN_FIELD} is missing or wrong: reload the page and try again`,
        ),
      );
    }
    return true;
  }
}
