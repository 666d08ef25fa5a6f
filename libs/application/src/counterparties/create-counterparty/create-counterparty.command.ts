import { Command } from '@nestjs/cqrs';
import type { CounterpartyRecord, CounterpartyType, ProfilePatch } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export interface NewCounterparty {
  readonly entity_id: string;
  readonly type: CounterpartyType;
  readonly nickname: string | null;
  readonly profile: ProfilePatch;
  readonly meta: Readonly<Record<string, string>>;
}

export class CreateCounterpartyCommand extends Command<CounterpartyRecord> {
  constructor(
    readonly context: CommandContext,
    readonly input: NewCounterparty,
  ) {
    super();
  }
}
