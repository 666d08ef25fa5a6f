import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { apiKeyDecider } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { handleCommand } from '../../command-handling';
import type { ActiveApiKey } from '../api-key';
import { apiKeyStream } from '../streams';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ context, apiKeyId }: RevokeApiKeyCommand): Promise<ActiveApiKey> {
    const command = { type: 'RevokeApiKey' as const, api_key_id: apiKeyId, now: Date.now() };
    const { state } = await handleCommand(this.store, apiKeyStream(apiKeyId), apiKeyDecider, command, context);
    return state as ActiveApiKey;
  }
}
