import { conflict, notFound, type Decider, type Decision } from '../../shared';
import type { ApiKeyEvent, KeyMaterial } from './api-key.events';
import { evolveApiKey, initialApiKeyState, type ApiKeyState } from './api-key';

export type ApiKeyCommand =
  | {
      readonly type: 'CreateApiKey';
      readonly api_key_id: string;
      readonly organization_id: string;
      readonly name: string | null;
      readonly mode: 'sandbox' | 'live';
      readonly bootstrap: boolean;
      readonly api_version: string;
      readonly material: KeyMaterial;
      readonly now: number;
    }
  | { readonly type: 'RotateApiKey'; readonly api_key_id: string; readonly material: KeyMaterial; readonly now: number }
  | { readonly type: 'RevokeApiKey'; readonly api_key_id: string; readonly now: number };

export function decideApiKey(command: ApiKeyCommand, state: ApiKeyState): Decision<ApiKeyEvent> {
  switch (command.type) {
    case 'CreateApiKey': {
      if (state.status !== 'none') return conflict('api_key_exists', 'This API key already exists');
      const { material, now, type: _t, ...rest } = command;
      return [{ type: 'ApiKeyCreated', data: { ...rest, ...material, created: now } }];
    }
    case 'RotateApiKey':
      if (state.status === 'none') return notFound('api_key', command.api_key_id);
      if (state.status === 'revoked') return conflict('api_key_revoked', 'A revoked key cannot be rotated');
      return [
        { type: 'ApiKeyRotated', data: { api_key_id: command.api_key_id, ...command.material, rotated: command.now } },
      ];
    case 'RevokeApiKey':
      if (state.status === 'none') return notFound('api_key', command.api_key_id);
      if (state.status === 'revoked') return conflict('api_key_revoked', 'This API key is already revoked');
      return [{ type: 'ApiKeyRevoked', data: { api_key_id: command.api_key_id, revoked: command.now } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: initialApiKeyState,
  decide: decideApiKey,
  evolve: evolveApiKey,
};
