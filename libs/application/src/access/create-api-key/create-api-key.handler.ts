import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { domainError } from '@app/domain';
import { apiKeyDecider, CURRENT_API_VERSION } from '@app/domain/access';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { newApiKey } from '@app/platform/security/credentials';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand } from '../../command-handling';
import { managedKeyModes, type ActiveApiKey } from '../api-key';
import { newKeyMaterial, registerKeyHash } from '../key-material';
import { apiKeyStream } from '../streams';
import { CreateApiKeyCommand, type IssuedApiKey } from './create-api-key.command';

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, input }: CreateApiKeyCommand): Promise<IssuedApiKey> {
    if (!managedKeyModes(context.actor).includes(input.mode)) {
      throw new DomainException(
        domainError('forbidden', 'forbidden_mode', 'A sandbox key can only create sandbox keys'),
      );
    }
    const id = `key_${ulid()}`;
    const key = input.key ?? newApiKey(input.mode);
    const material = await newKeyMaterial(this.box, key);
    await registerKeyHash(this.store, material.key_hash, id, context, input.mode);
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
        api_version: input.apiVersion ?? CURRENT_API_VERSION,
        material,
        now: this.clock.now(),
      },
      context,
      // The key lives in its own world, whichever key created it.
      { mode: input.mode },
    );
    return { key, state: state as ActiveApiKey };
  }
}
