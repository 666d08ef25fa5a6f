import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';
import type { ActiveApiKey } from '../api-key';

/** Revokes a key, and with it the entity tokens it issued. */
export class RevokeApiKeyCommand extends Command<ActiveApiKey> {
  constructor(
    readonly context: CommandContext,
    readonly apiKeyId: string,
  ) {
    super();
  }
}
