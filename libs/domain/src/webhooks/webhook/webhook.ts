import type { WebhookEvent, WebhookSettings } from './webhook.events';

export interface ExistingWebhook extends WebhookSettings {
  readonly id: string;
  readonly entity_id: string;
  readonly created: number;
  readonly updated: number;
}

export type WebhookState = { readonly status: 'none' } | { readonly status: 'deleted'; readonly id: string } | ExistingWebhook;

export const initialWebhookState: WebhookState = { status: 'none' };

export const isExistingWebhook = (state: WebhookState): state is ExistingWebhook => state.status === 'active' || state.status === 'inactive';

/** The status a reader sees: a webhook past `expires_at` reads `inactive` (decisions §9). */
export function webhookStatusAt(webhook: Pick<WebhookSettings, 'status' | 'expires_at'>, now: number): 'active' | 'inactive' {
  if (webhook.expires_at !== null && now >= webhook.expires_at) return 'inactive';
  return webhook.status;
}

export function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhook_id, created, ...rest } = event.data;
      return { ...rest, id: webhook_id, created, updated: created };
    }
    case 'WebhookUpdated':
      return isExistingWebhook(state) ? { ...state, ...event.data.changes, updated: event.data.updated } : state;
    case 'WebhookDeleted':
      return isExistingWebhook(state) ? { status: 'deleted', id: state.id } : state;
    default:
      return state;
  }
}
