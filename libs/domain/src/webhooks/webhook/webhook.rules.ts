import { conflict, invalid, type DomainError } from '../../shared';
import { CARD_AUTHORIZATION_REQUEST, subscribesTo } from '../catalogue';
import type { WebhookSettings } from './webhook.events';
import { webhookStatusAt } from './webhook';

export const WEBHOOK_URL_MAX = 2048;
/** Ten years: long enough for any planned rotation, short enough to stay a safe integer of ms. */
export const WEBHOOK_EXPIRES_IN_MAX = 315_360_000;
export const WEBHOOK_DESCRIPTION_MAX = 500;
export const WEBHOOK_TAGS_MAX = 20;
export const WEBHOOK_TAG_MAX = 64;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 128;

/**
 * The shape of a delivery URL: absolute, `https:`, a host, no user-info (credentials belong in
 * headers the receiver controls, and would leak into logs). Where the host resolves is checked
 * by the application, which can do I/O.
 */
export function refuseWebhookUrl(url: string): DomainError | null {
  if (url.length > WEBHOOK_URL_MAX) return invalid('url', `url must be at most ${WEBHOOK_URL_MAX} characters`);
  // The URL parser silently drops tabs and line breaks; a URL is stored exactly as checked, so none may be there.
  if (/[\u0000-\u0020\u007f]/.test(url)) return invalid('url', 'url must not contain spaces or control characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return invalid('url', 'url must be an absolute URL');
  }
  if (parsed.protocol !== 'https:' || !/^https:\/\//i.test(url)) return invalid('url', 'url must begin with https://');
  if (!parsed.hostname) return invalid('url', 'url must name a host');
  if (parsed.username || parsed.password) return invalid('url', 'url must not carry credentials');
  return null;
}

export function refuseExpiresIn(value: number | null): DomainError | null {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || value < 1 || value > WEBHOOK_EXPIRES_IN_MAX) {
    return invalid(
      'expires_in',
      `expires_in must be an integer of seconds between 1 and ${WEBHOOK_EXPIRES_IN_MAX}, or null`,
    );
  }
  return null;
}

export function refuseDescription(value: string | null): DomainError | null {
  if (value !== null && value.length > WEBHOOK_DESCRIPTION_MAX)
    return invalid('description', `description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`);
  return null;
}

export function refuseTags(tags: readonly string[]): DomainError | null {
  if (tags.length > WEBHOOK_TAGS_MAX) return invalid('tags', `at most ${WEBHOOK_TAGS_MAX} tags`);
  if (tags.some((t) => t.trim().length === 0 || t.length > WEBHOOK_TAG_MAX))
    return invalid('tags', `each tag must be 1-${WEBHOOK_TAG_MAX} characters, not blank`);
  return null;
}

/** Decisions §15: the previous secret stays valid at most a day after a rotation (Stripe's limit). */
export const WEBHOOK_EXPIRE_PREVIOUS_MAX = 86_400;

export function refuseExpirePreviousIn(value: number): DomainError | null {
  if (!Number.isSafeInteger(value) || value < 0 || value > WEBHOOK_EXPIRE_PREVIOUS_MAX) {
    return invalid(
      'expire_previous_in',
      `expire_previous_in must be an integer of seconds between 0 and ${WEBHOOK_EXPIRE_PREVIOUS_MAX}`,
    );
  }
  return null;
}

export const expiresAt = (expiresIn: number | null, from: number): number | null =>
  expiresIn === null ? null : from + expiresIn * 1000;

/**
 * Decisions §16: an entity has at most one active webhook subscribed to `card_authorizations.request`
 * (an authorization waits on one answer, not a vote). `others`: the entity's other webhooks, as read
 * from their streams; `candidate`: the settings the webhook being created or updated would have.
 */
export function refuseSecondAuthorizationEndpoint(
  candidate: Pick<WebhookSettings, 'enabled_events' | 'status' | 'expires_at'>,
  others: readonly (Pick<WebhookSettings, 'enabled_events' | 'status' | 'expires_at'> & { readonly id: string })[],
  now: number,
): DomainError | null {
  const isEndpoint = (w: Pick<WebhookSettings, 'enabled_events' | 'status' | 'expires_at'>) =>
    webhookStatusAt(w, now) === 'active' && subscribesTo(w.enabled_events, CARD_AUTHORIZATION_REQUEST);
  const existing = isEndpoint(candidate) ? others.find(isEndpoint) : undefined;
  return existing
    ? conflict(
        'authorization_endpoint_exists',
        `Webhook ${existing.id} already decides this entity's card authorizations; disable or unsubscribe it first`,
      )
    : null;
}
