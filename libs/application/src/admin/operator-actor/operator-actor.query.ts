import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../command-handling';

export type OperatedResource = 'entity' | 'transfer';

/**
 * The operator as it acts on one resource (decisions §11): in the resource's organization and
 * mode, read from its stream, so the ordinary command handlers decide and record it (actor
 * `operator`) exactly as they do for a key of that world. Unknown resource: 404.
 */
export class OperatorActorQuery extends Query<Actor> {
  constructor(
    readonly resource: OperatedResource,
    readonly id: string,
  ) {
    super();
  }
}
