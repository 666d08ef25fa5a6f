import { conflict, type Decider, type Decision } from '../../shared';

/** An entity-scoped credential, stored only as the SHA-256 of the token, in stream `entity-token-<hash>`. */
export type EntityTokenEvent = {
  readonly type: 'EntityTokenIssued';
  readonly data: {
    readonly token_hash: string;
    readonly entity_id: string;
    readonly organization_id: string;
    readonly api_key_id: string;
    readonly mode: 'sandbox' | 'live';
    readonly expires_at: number;
    readonly created: number;
  };
};

export type EntityTokenState =
  { readonly status: 'none' } | { readonly status: 'issued'; readonly data: EntityTokenEvent['data'] };

export type EntityTokenCommand = { readonly type: 'IssueEntityToken'; readonly data: EntityTokenEvent['data'] };

export const entityTokenDecider: Decider<EntityTokenCommand, EntityTokenEvent, EntityTokenState> = {
  initialState: { status: 'none' },
  decide(command, state): Decision<EntityTokenEvent> {
    if (state.status !== 'none') return conflict('entity_token_exists', 'This token was already issued');
    return [{ type: 'EntityTokenIssued', data: command.data }];
  },
  evolve(state, event) {
    return event.type === 'EntityTokenIssued' ? { status: 'issued', data: event.data } : state;
  },
};
