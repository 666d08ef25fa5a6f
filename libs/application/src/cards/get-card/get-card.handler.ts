import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { cardUsage } from '@app/domain/cards';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { CARD_DATASETS, type CardDatasets } from '../card-ports';
import { loadCard } from '../card-checks';
import { GetCardQuery, type CardDetails } from './get-card.query';

@QueryHandler(GetCardQuery)
export class GetCardHandler implements IQueryHandler<GetCardQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CARD_DATASETS) private readonly datasets: CardDatasets,
  ) {}

  async execute({ actor, cardId }: GetCardQuery): Promise<CardDetails> {
    const card = await loadCard(this.store, actor, cardId);
    const usage = cardUsage({
      amount: card.card.amount,
      controls: card.card.controls,
      usage: card.usage,
      groups: this.datasets.mccGroups,
      now: this.clock.now(),
    });
    return {
      card,
      number: this.box.open(card.card.pan).toString('utf8'),
      cvv: this.box.open(card.card.cvv).toString('utf8'),
      usage,
    };
  }
}
