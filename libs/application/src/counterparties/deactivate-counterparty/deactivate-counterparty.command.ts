import { Command } from '@nestjs/cqrs';
import type { CounterpartyRecord } from '@app/domain';
import type { CommandContext } from '../../command-handling';

/** `entityId`: with an API key, the entity the caller believes owns it (another one answers 404). */
export class DeactivateCounterpartyCommand extends Command<CounterpartyRecord> {
  constructor(
    readonly context: CommandContext,
    readonly counterpartyId: string,
    readonly entityId?: string,
  ) {
    super();
  }
}
