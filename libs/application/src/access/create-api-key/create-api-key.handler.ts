import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { apiKeyDecider } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { newApiKey } from '@app/platform/security/credentials';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { handleCommand } from '../../command-handling';
import type { ActiveApiKey } from '../api-key';
import { newKeyMaterial, registerKeyHash } from '../key-material';
import { apiKeyStream } from '../streams';
import { CreateApiKeyCommand, type IssuedApiKey } from './create-api-key.command';

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ context, input }: CreateApiKeyCommand): Promise<IssuedApiKey> {
    const id = `key_${ulid()}`;
    const key = input.key ?? newApiKey(input.mode);
    const material = await newKeyMaterial(this.box, key);
    await registerKeyHash(this.store, material.key_hash, id, context);
    const { state } = await handleCommand(
      this.store,
      apiKeyStream(id),
      apiKeyDecider,
      {
        type: 'CreateApiKey',
        api_key_id: id,
        organization_id: context.actor.organizationId,
        name: input.name,
        mode: input.mode,
        bootstrap: input.bootstrap ?? false,
        material,
        now: Date.now(),
      },
      context,
    );
    return { key, state: state as ActiveApiKey };
  }
}
