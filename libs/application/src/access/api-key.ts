import { apiKeyDecider, type ApiKeyState } from '@app/domain/access';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { loadAggregate, type Actor } from '../command-handling';
import { apiKeyStream } from './streams';

export type ActiveApiKey = Extract<ApiKeyState, { status: 'active' | 'revoked' }>;

/** The key as the actor may see it (folded, so current); null when absent or another organization's. */
export async function loadApiKey(store: EventStore, actor: Actor, id: string): Promise<ActiveApiKey | null> {
  const loaded = await loadAggregate(store, apiKeyStream(id), apiKeyDecider, { actor });
  return loaded && loaded.state.status !== 'none' ? loaded.state : null;
}

export const actorForKey = (state: ActiveApiKey): Actor => ({
  kind: 'api_key',
  organizationId: state.organization_id,
  mode: state.mode,
  id: state.id,
});
