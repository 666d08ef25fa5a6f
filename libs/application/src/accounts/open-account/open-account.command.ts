import { Command } from '@nestjs/cqrs';
import type { OpenAccountState } from '@app/domain/accounts';
import type { CommandContext } from '../../command-handling';

export interface OpenAccountInput {
  readonly entity_id: string;
  readonly type: string;
  readonly currency: string;
  readonly display_name: string;
}

export class OpenAccountCommand extends Command<OpenAccountState> {
  constructor(
    readonly context: CommandContext,
    readonly input: OpenAccountInput,
  ) {
    super();
  }
}
