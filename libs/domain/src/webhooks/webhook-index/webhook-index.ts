import type { Decider, Decision } from '../../shared';

/**
 * Stream `webhook-index-<entity_id>`: the webhooks ever created for an entity. The webhook router
 * reads it to find an entity's webhook streams without a read model (which trails the log). It is
 * written before `WebhookCreated`, so any webhook whose creation precedes an event in the log is
 * already listed when that event is routed; an entry whose creation never followed names an empty
 * stream and routes nothing.
 */
export type WebhookIndexEvent = { readonly type: 'WebhookIndexed'; readonly data: { readonly webhook_id: string; readonly entity_id: string } };

export interface WebhookIndexState {
  readonly webhook_ids: readonly string[];
}

export type WebhookIndexCommand = { readonly type: 'IndexWebhook'; readonly webhook_id: string; readonly entity_id: string };

/** Indexing again (a retried request, the backfill, the router seeing the creation) records nothing. */
function decide(command: WebhookIndexCommand, state: WebhookIndexState): Decision<WebhookIndexEvent> {
  if (state.webhook_ids.includes(command.webhook_id)) return [];
  return [{ type: 'WebhookIndexed', data: { webhook_id: command.webhook_id, entity_id: command.entity_id } }];
}

function evolve(state: WebhookIndexState, event: WebhookIndexEvent): WebhookIndexState {
  if (event.type !== 'WebhookIndexed' || state.webhook_ids.includes(event.data.webhook_id)) return state;
  return { webhook_ids: [...state.webhook_ids, event.data.webhook_id] };
}

export const webhookIndexDecider: Decider<WebhookIndexCommand, WebhookIndexEvent, WebhookIndexState> = {
  initialState: { webhook_ids: [] },
  decide,
  evolve,
};
