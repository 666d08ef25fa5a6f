import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ulid } from '@app/platform/ids/ulid';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { modeOfKey, sha256 } from '@app/platform/security/credentials';
import type { Mode } from '@app/platform/event-store/event-mode';
import { systemActor, toAppend, type CommandContext } from '../command-handling';
import { CreateApiKeyCommand } from './create-api-key/create-api-key.command';
import { apiKeyHashStream, BOOTSTRAP_STREAM } from './streams';

/**
 * Seeds PAYMENTS_BOOTSTRAP_API_KEYS, each as its own organization. With none given and no key
 * ever issued, creates one sandbox key and returns it so the process can print it once.
 * Safe to run on every start and on several replicas at once: every step is a reservation.
 */
@Injectable()
export class BootstrapService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    private readonly commands: CommandBus,
  ) {}

  async run(): Promise<{ generatedKey: string | null }> {
    for (const key of this.config.bootstrapApiKeys) {
      if ((await this.store.readStream(apiKeyHashStream(sha256(key)))).length) continue;
      await this.ignoreRace(() =>
        this.commands.execute(
          new CreateApiKeyCommand(this.context(modeOfKey(key)!), {
            name: 'bootstrap',
            mode: modeOfKey(key)!,
            key,
            bootstrap: true,
          }),
        ),
      );
    }
    const firstStart = await this.ignoreRace(async () => {
      await this.store.append(
        BOOTSTRAP_STREAM,
        [
          toAppend(
            { type: 'PlatformBootstrapped', data: { seeded_keys: this.config.bootstrapApiKeys.length } },
            this.context('sandbox'),
            null,
          ),
        ],
        'no_stream',
      );
      return true;
    });
    if (!firstStart || this.config.bootstrapApiKeys.length) return { generatedKey: null };
    const { key } = await this.commands.execute(
      new CreateApiKeyCommand(this.context('sandbox'), { name: 'default', mode: 'sandbox', bootstrap: true }),
    );
    return { generatedKey: key };
  }

  /** Each seeded key is its own organization, created in the key's mode. */
  private context(mode: Mode): CommandContext {
    const id = `boot_${ulid()}`;
    return { actor: systemActor(`org_${ulid()}`, 'bootstrap', mode), correlationId: id, causationId: id };
  }

  private async ignoreRace<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
  }
}
