import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isDomainError, notFound } from '@app/domain';
import { apiKeyDecider } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { newApiKey } from '@app/platform/security/credentials';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { loadManagedKey, type ActiveApiKey } from '../api-key';
import type { IssuedApiKey } from '../create-api-key/create-api-key.command';
import { newKeyMaterial, registerKeyHash } from '../key-material';
import { apiKeyStream } from '../streams';
import { RotateApiKeyCommand } from './rotate-api-key.command';

@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler implements ICommandHandler<RotateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, apiKeyId }: RotateApiKeyCommand): Promise<IssuedApiKey> {
    const managed = await loadManagedKey(this.store, context.actor, apiKeyId);
    if (!managed) throw new DomainException(notFound('api_key', apiKeyId));
    const inKeyMode = { ...context, actor: managed.actor };
    const key = newApiKey(managed.key.mode);
    const material = await newKeyMaterial(this.box, key);
    const command = { type: 'RotateApiKey' as const, api_key_id: apiKeyId, material, now: this.clock.now() };
    // A refused rotation (a revoked key) must write nothing, not even the new hash's registration.
    const refusal = apiKeyDecider.decide(command, managed.key);
    if (isDomainError(refusal)) throw new DomainException(refusal);
    await registerKeyHash(this.store, material.key_hash, apiKeyId, inKeyMode, managed.key.mode);
    const { state } = await handleCommand(this.store, apiKeyStream(apiKeyId), apiKeyDecider, command, inKeyMode);
    return { key, state: state as ActiveApiKey };
  }
}
