import { Query } from '@nestjs/cqrs';
import type { ExistingEntity } from '@app/domain';
import type { Actor } from '../../command-handling';

/** One entity, folded from its stream (read-your-writes). */
export class GetEntityQuery extends Query<ExistingEntity> {
  constructor(
    readonly actor: Actor,
    readonly entityId: string,
  ) {
    super();
  }
}
