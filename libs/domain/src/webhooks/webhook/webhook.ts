import type { WebhookDisabledReason, WebhookEvent, WebhookSettings } from './webhook.events';

export interface ExistingWebhook extends WebhookSettings {
  readonly id: string;
  readonly entity_id: string;
  readonly created: number;
  readonly updated: number;
  /** Why the platform turned it inactive (decisions §15); null when it did not, or once it is set active again. */
  readonly disabled_reason?: WebhookDisabledReason | null;
  /** The key a rotation replaced, sealed, valid until `previous_expires_at` (decisions §15). */
  readonly previous_signing_key?: string | null;
  readonly previous_expires_at?: number | null;
}

export type WebhookState =
  { readonly status: 'none' } | { readonly status: 'deleted'; readonly id: string } | ExistingWebhook;

export const initialWebhookState: WebhookState = { status: 'none' };

export const isExistingWebhook = (state: WebhookState): state is ExistingWebhook =>
  state.status === 'active' || state.status === 'inactive';

/** The status a reader sees: a webhook past `expires_at` reads `inactive` (decisions §9). */
export function webhookStatusAt(
  webhook: Pick<WebhookSettings, 'status' | 'expires_at'>,
  now: number,
): 'active' | 'inactive' {
  if (webhook.expires_at !== null && now >= webhook.expires_at) return 'inactive';
  return webhook.status;
}

/** The sealed keys a delivery at `now` is signed with: the current one first, then the previous one while it is still valid. */
export function signingKeysAt(webhook: ExistingWebhook, now: number): string[] {
  const previous =
    webhook.previous_signing_key &&
    webhook.previous_expires_at !== null &&
    webhook.previous_expires_at !== undefined &&
    now < webhook.previous_expires_at;
  return previous ? [webhook.signing_key, webhook.previous_signing_key!] : [webhook.signing_key];
}

function updated(state: ExistingWebhook, changes: Partial<WebhookSettings>, at: number): ExistingWebhook {
  const next: ExistingWebhook = { ...state, ...changes, updated: at };
  // Set active again, it is no longer disabled; a secret set by PATCH replaces every key at once (§15).
  const reason = changes.status === 'active' ? { disabled_reason: null } : {};
  const keys = changes.signing_key !== undefined ? { previous_signing_key: null, previous_expires_at: null } : {};
  return { ...next, ...reason, ...keys };
}

export function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhook_id, created, ...rest } = event.data;
      return { ...rest, id: webhook_id, created, updated: created };
    }
    case 'WebhookUpdated':
      return isExistingWebhook(state) ? updated(state, event.data.changes, event.data.updated) : state;
    case 'WebhookSecretRotated': {
      if (!isExistingWebhook(state)) return state;
      const { signing_key, previous_signing_key, previous_expires_at, rotated } = event.data;
      return { ...state, signing_key, previous_signing_key, previous_expires_at, updated: rotated };
    }
    case 'WebhookDisabled':
      return isExistingWebhook(state)
        ? { ...state, status: 'inactive', disabled_reason: event.data.reason, updated: event.data.disabled }
        : state;
    case 'WebhookDeleted':
      return isExistingWebhook(state) ? { status: 'deleted', id: state.id } : state;
    default:
      return state;
  }
}
