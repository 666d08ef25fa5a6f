import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { DomainException } from '../../command-handling';
import { loadApiKey, type ActiveApiKey } from '../api-key';
import { GetApiKeyQuery } from './get-api-key.query';

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ actor, apiKeyId }: GetApiKeyQuery): Promise<ActiveApiKey> {
    const key = await loadApiKey(this.store, actor, apiKeyId);
    if (!key) throw new DomainException(notFound('api_key', apiKeyId));
    return key;
  }
}
