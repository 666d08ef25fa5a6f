import { Command } from '@nestjs/cqrs';
import type { Address, ExistingEntity, Profile } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export interface NewEntity {
  readonly type: 'individual' | 'business';
  readonly profile: Profile;
  readonly address: Address | null;
  readonly meta: Readonly<Record<string, string>>;
  readonly creation_context: 'api' | 'quick_start';
}

export class CreateEntityCommand extends Command<ExistingEntity> {
  constructor(
    readonly context: CommandContext,
    readonly input: NewEntity,
  ) {
    super();
  }
}
