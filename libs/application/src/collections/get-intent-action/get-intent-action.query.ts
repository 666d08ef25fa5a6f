import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../command-handling';
import type { IntentActionView } from '../load';

/** One intent action folded from its stream, with its intent's refunded total. */
export class GetIntentActionQuery extends Query<IntentActionView> {
  constructor(
    readonly actor: Actor,
    readonly intentActionId: string,
  ) {
    super();
  }
}
