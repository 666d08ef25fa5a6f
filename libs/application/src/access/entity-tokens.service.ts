import { Inject, Injectable } from '@nestjs/common';
import type { EntityTokenEvent } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { sha256 } from '@app/platform/security/credentials';
import { CLOCK, type Clock } from '@app/platform/clock';
import { loadApiKey, type KeyActor } from './api-key';
import { entityTokenStream } from './streams';

/** Authentication of entity tokens for the auth guard; issuing one is IssueEntityTokenCommand. */
@Injectable()
export class EntityTokensService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** An unexpired token whose issuing key is still active; null otherwise. */
  async resolve(token: string, now = this.clock.now()): Promise<KeyActor | null> {
    const [issued] = await this.store.readStream(entityTokenStream(sha256(token)));
    if (!issued) return null;
    const data = issued.data as EntityTokenEvent['data'];
    if (data.expires_at <= now) return null;
    // Revoking a key revokes the tokens it issued; rotation keeps them (same key id, still active).
    const key = await loadApiKey(
      this.store,
      { kind: 'system', organizationId: data.organization_id, mode: data.mode, id: 'auth' },
      data.api_key_id,
    );
    if (!key || key.status !== 'active') return null;
    return {
      kind: 'entity_token',
      organizationId: data.organization_id,
      mode: data.mode,
      id: data.api_key_id,
      entityId: data.entity_id,
      apiVersion: key.api_version,
    };
  }
}
