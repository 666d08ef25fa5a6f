import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';
import type { IssuedApiKey } from '../create-api-key/create-api-key.command';

/** Replaces a key's secret; the old one stops working at once. */
export class RotateApiKeyCommand extends Command<IssuedApiKey> {
  constructor(
    readonly context: CommandContext,
    readonly apiKeyId: string,
  ) {
    super();
  }
}
