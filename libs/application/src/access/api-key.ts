import { apiKeyDecider, type ApiKeyState } from '@app/domain/access';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { loadAggregate, type Actor } from '../command-handling';
import { apiKeyStream } from './streams';

export type ActiveApiKey = Extract<ApiKeyState, { status: 'active' | 'revoked' }>;

/** The key as the actor may see it (folded, so current); null when absent or another organization's or mode's. */
export async function loadApiKey(store: EventStore, actor: Actor, id: string): Promise<ActiveApiKey | null> {
  const loaded = await loadAggregate(store, apiKeyStream(id), apiKeyDecider, { actor });
  return loaded && loaded.state.status !== 'none' ? loaded.state : null;
}

/**
 * The worlds whose keys an actor manages (decisions §1): a live key both, since it may create
 * either; a sandbox key only sandbox, so a leaked test key can never reach production.
 */
export const managedKeyModes = (actor: Actor): readonly Mode[] =>
  actor.mode === 'live' ? ['live', 'sandbox'] : ['sandbox'];

/**
 * A key the actor manages, with the actor as it acts on that key: in the key's world, so the
 * command passes tenancy and its events carry the key's mode. Null when the actor may not see it.
 */
export async function loadManagedKey(
  store: EventStore,
  actor: Actor,
  id: string,
): Promise<{ key: ActiveApiKey; actor: Actor } | null> {
  for (const mode of managedKeyModes(actor)) {
    const inMode = { ...actor, mode };
    const key = await loadApiKey(store, inMode, id);
    if (key) return { key, actor: inMode };
  }
  return null;
}

/** An actor of a key or of a token it issued, with the dated API version the key is pinned to (Payments-Version). */
export type KeyActor = Actor & { readonly apiVersion: string };

export const actorForKey = (state: ActiveApiKey): KeyActor => ({
  kind: 'api_key',
  organizationId: state.organization_id,
  mode: state.mode,
  id: state.id,
  apiVersion: state.api_version,
});
