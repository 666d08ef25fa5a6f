import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conflict, notFound } from '@app/domain';
import { apiKeyDecider } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { loadManagedKey, type ActiveApiKey } from '../api-key';
import { apiKeyStream } from '../streams';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, apiKeyId }: RevokeApiKeyCommand): Promise<ActiveApiKey> {
    const managed = await loadManagedKey(this.store, context.actor, apiKeyId);
    if (!managed) throw new DomainException(notFound('api_key', apiKeyId));
    // Revoking the key in hand would lock the caller out mid-request; another key must do it.
    if (context.actor.kind === 'api_key' && context.actor.id === apiKeyId) {
      throw new DomainException(
        conflict('cannot_revoke_self', 'A key cannot revoke itself; revoke it with another key'),
      );
    }
    const command = { type: 'RevokeApiKey' as const, api_key_id: apiKeyId, now: this.clock.now() };
    const { state } = await handleCommand(this.store, apiKeyStream(apiKeyId), apiKeyDecider, command, {
      ...context,
      actor: managed.actor,
    });
    return state as ActiveApiKey;
  }
}
