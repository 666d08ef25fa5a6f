import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../command-handling';
import type { ActiveApiKey } from '../api-key';

export interface CreateApiKeyInput {
  readonly name: string | null;
  readonly mode: 'sandbox' | 'live';
  /** A key given in configuration (bootstrap); otherwise one is generated. */
  readonly key?: string;
  readonly bootstrap?: boolean;
  /** The dated API version to pin the key to (the request's Payments-Version); default the current one. */
  readonly apiVersion?: string;
}

export interface IssuedApiKey {
  /** The clear key: returned once, here, and never stored. */
  readonly key: string;
  readonly state: ActiveApiKey;
}

/** Creates a key in the caller's organization. */
export class CreateApiKeyCommand extends Command<IssuedApiKey> {
  constructor(
    readonly context: CommandContext,
    readonly input: CreateApiKeyInput,
  ) {
    super();
  }
}
