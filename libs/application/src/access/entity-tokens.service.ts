import { Inject, Injectable } from '@nestjs/common';
import { domainError, entityTokenDecider, type EntityTokenEvent } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { randomToken, sha256 } from '@app/platform/security/credentials';
import { DomainException, handleCommand, visibleStream, type Actor, type CommandContext } from '../command-handling';
import { ApiKeysService } from './api-keys.service';
import { entityTokenStream } from './streams';

export const MAX_TOKEN_SECONDS = 86_400;

@Injectable()
export class EntityTokensService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /** Issues `etk_…` for an entity of the caller's organization; only the hash is stored. */
  async issue(context: CommandContext, entityId: string, expiresInSeconds: number) {
    const entity = visibleStream(await this.store.readStream(`entity-${entityId}`), context.actor);
    if (!entity.length) throw new DomainException(domainError('not_found', 'entity_not_found', `No entity with id ${entityId}`));
    const token = `etk_${randomToken(40)}`;
    const hash = sha256(token);
    const now = Date.now();
    const data: EntityTokenEvent['data'] = {
      token_hash: hash,
      entity_id: entityId,
      organization_id: context.actor.organizationId,
      api_key_id: context.actor.id,
      mode: context.actor.mode,
      expires_at: now + expiresInSeconds * 1000,
      created: now,
    };
    await handleCommand(this.store, entityTokenStream(hash), entityTokenDecider, { type: 'IssueEntityToken', data }, context, { entityId });
    return { token, entity_id: entityId, expires_at: data.expires_at };
  }

  /** An unexpired token whose issuing key is still active; null otherwise. */
  async resolve(token: string, now = Date.now()): Promise<Actor | null> {
    const [issued] = await this.store.readStream(entityTokenStream(sha256(token)));
    if (!issued) return null;
    const data = issued.data as EntityTokenEvent['data'];
    if (data.expires_at <= now) return null;
    // Revoking a key revokes the tokens it issued; rotation keeps them (same key id, still active).
    const key = await this.apiKeys.get({ actor: { kind: 'system', organizationId: data.organization_id, mode: data.mode, id: 'auth' } }, data.api_key_id);
    if (!key || key.status !== 'active') return null;
    return { kind: 'entity_token', organizationId: data.organization_id, mode: data.mode, id: data.api_key_id, entityId: data.entity_id };
  }
}
