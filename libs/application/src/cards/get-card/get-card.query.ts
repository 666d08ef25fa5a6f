import { Query } from '@nestjs/cqrs';
import type { cardUsage, IssuedCardState } from '@app/domain/cards';
import type { Actor } from '../../command-handling';

export interface CardDetails {
  readonly card: IssuedCardState;
  readonly number: string;
  readonly cvv: string;
  /** As of the clock's now: the current day and cycle. */
  readonly usage: ReturnType<typeof cardUsage>;
}

/** GET /card-details/{id}: the card folded from its stream, credentials opened, usage computed. */
export class GetCardQuery extends Query<CardDetails> {
  constructor(
    readonly actor: Actor,
    readonly cardId: string,
  ) {
    super();
  }
}
