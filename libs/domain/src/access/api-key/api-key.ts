import type { ApiKeyEvent, KeyMaterial } from './api-key.events';
import { FIRST_API_VERSION } from './api-version';

export type ApiKeyState =
  | { readonly status: 'none' }
  | (KeyMaterial & {
      readonly status: 'active' | 'revoked';
      readonly id: string;
      readonly organization_id: string;
      readonly name: string | null;
      readonly mode: 'sandbox' | 'live';
      readonly api_version: string;
      readonly created: number;
      readonly updated: number;
    });

export const initialApiKeyState: ApiKeyState = { status: 'none' };

export function evolveApiKey(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { api_key_id, bootstrap: _bootstrap, created, api_version, ...rest } = event.data;
      // Upcast: a key created before versions existed is on the first one.
      return {
        ...rest,
        api_version: api_version ?? FIRST_API_VERSION,
        status: 'active',
        id: api_key_id,
        created,
        updated: created,
      };
    }
    case 'ApiKeyRotated': {
      if (state.status === 'none') return state;
      const { api_key_id: _id, rotated, ...material } = event.data;
      return { ...state, ...material, updated: rotated };
    }
    case 'ApiKeyRevoked':
      return state.status === 'none' ? state : { ...state, status: 'revoked', updated: event.data.revoked };
    default:
      return state;
  }
}
