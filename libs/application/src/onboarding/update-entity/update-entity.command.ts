import { Command } from '@nestjs/cqrs';
import type { BusinessPatch, ChangesApplied, ExistingEntity, IndividualPatch } from '@app/domain';
import type { CommandContext } from '../../command-handling';

export type EntityUpdate =
  | { readonly type: 'individual'; readonly patch: IndividualPatch }
  | { readonly type: 'business'; readonly patch: BusinessPatch };

export interface UpdatedEntity {
  readonly state: ExistingEntity;
  /** Null when the patch changed nothing. */
  readonly applied: ChangesApplied | null;
}

export class UpdateEntityCommand extends Command<UpdatedEntity> {
  constructor(
    readonly context: CommandContext,
    readonly entityId: string,
    readonly update: EntityUpdate,
  ) {
    super();
  }
}
