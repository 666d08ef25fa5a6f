import { Command } from '@nestjs/cqrs';
import type { CounterpartyRecord, ProfilePatch } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export interface CounterpartyChange {
  /** With an API key: the entity to move it to (or the one it has). */
  readonly entity_id?: string;
  readonly nickname?: string;
  readonly profile?: ProfilePatch;
  readonly meta?: Readonly<Record<string, string>>;
}

export class UpdateCounterpartyCommand extends Command<CounterpartyRecord> {
  constructor(
    readonly context: CommandContext,
    readonly counterpartyId: string,
    readonly change: CounterpartyChange,
  ) {
    super();
  }
}
