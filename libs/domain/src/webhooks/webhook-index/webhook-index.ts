import type { Decider, Decision } from '../../shared';

/**
 * Stream `webhook-index-<entity_id>`: the webhooks ever created for an entity. The webhook router
 * reads it to find an entity's webhook streams without a read model (which trails the log). It is
 * written before `WebhookCreated`, so any webhook whose creation precedes an event in the log is
 * already listed when that event is routed; an entry whose creation never followed names an empty
 * stream and routes nothing.
 */
export type WebhookIndexEvent =
  | { readonly type: 'WebhookIndexed'; readonly data: { readonly webhook_id: string; readonly entity_id: string } }
  /**
   * Decisions §16: a creation or update is about to make `webhook_id` the entity's authorization
   * endpoint. Appended at the index revision the one-endpoint rule was checked on, so of two racing
   * only one passes; the loser checks again and sees this claim. `revision`: the webhook stream's
   * revision the change will follow (-1 for a creation), to tell a change still in flight.
   */
  | {
      readonly type: 'AuthorizationEndpointClaimed';
      readonly data: AuthorizationEndpointClaim & { readonly entity_id: string };
    };

export interface AuthorizationEndpointClaim {
  readonly webhook_id: string;
  readonly revision: number;
  readonly at: number;
}

export interface WebhookIndexState {
  readonly webhook_ids: readonly string[];
  /** The latest claim (absent until one; older indexes have none). */
  readonly claim?: AuthorizationEndpointClaim;
}

export type WebhookIndexCommand =
  | {
      readonly type: 'IndexWebhook';
      readonly webhook_id: string;
      readonly entity_id: string;
      readonly claim?: AuthorizationEndpointClaim;
    }
  | {
      readonly type: 'ClaimAuthorizationEndpoint';
      readonly entity_id: string;
      readonly claim: AuthorizationEndpointClaim;
    };

/** How long a claim whose change has not reached its webhook's stream still holds (a request that died in between frees it then). */
export const CLAIM_IN_FLIGHT_MS = 30_000;

/**
 * Whether another webhook's claim is still in flight at `now`: its change has not reached its
 * stream (`current`: that stream's revision now) and is recent. A landed change is judged on the
 * webhook's own stream instead.
 */
export function claimInFlight(
  state: WebhookIndexState,
  webhookId: string | null,
  current: (id: string) => number,
  now: number,
): AuthorizationEndpointClaim | null {
  const claim = state.claim;
  if (!claim || claim.webhook_id === webhookId) return null;
  return current(claim.webhook_id) <= claim.revision && now - claim.at < CLAIM_IN_FLIGHT_MS ? claim : null;
}

/** Indexing again (a retried request, the backfill, the router seeing the creation) records nothing; a claim is recorded each time. */
function decide(command: WebhookIndexCommand, state: WebhookIndexState): Decision<WebhookIndexEvent> {
  const claimed = (claim: AuthorizationEndpointClaim): WebhookIndexEvent[] => [
    { type: 'AuthorizationEndpointClaimed', data: { ...claim, entity_id: command.entity_id } },
  ];
  if (command.type === 'ClaimAuthorizationEndpoint') return claimed(command.claim);
  const indexed: WebhookIndexEvent[] = state.webhook_ids.includes(command.webhook_id)
    ? []
    : [{ type: 'WebhookIndexed', data: { webhook_id: command.webhook_id, entity_id: command.entity_id } }];
  return [...(command.claim ? claimed(command.claim) : []), ...indexed];
}

function evolve(state: WebhookIndexState, event: WebhookIndexEvent): WebhookIndexState {
  if (event.type === 'AuthorizationEndpointClaimed') {
    const { webhook_id, revision, at } = event.data;
    return { ...state, claim: { webhook_id, revision, at } };
  }
  if (event.type !== 'WebhookIndexed' || state.webhook_ids.includes(event.data.webhook_id)) return state;
  return { ...state, webhook_ids: [...state.webhook_ids, event.data.webhook_id] };
}

export const webhookIndexDecider: Decider<WebhookIndexCommand, WebhookIndexEvent, WebhookIndexState> = {
  initialState: { webhook_ids: [] },
  decide,
  evolve,
};
