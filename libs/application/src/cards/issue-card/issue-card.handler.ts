import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { invalid, isDomainError } from '@app/domain';
import {
  cardCreationCounterDecider,
  cardDecider,
  isFutureExpiry,
  lastFour,
  parseControls,
  virtualExpiry,
  type CardControls,
  type IssuedCard,
} from '@app/domain/cards';
import { currencyInfo, type OpenAccountState } from '@app/domain/accounts';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { SECRET_BOX, SecretBox } from '@app/platform/security/secret-box';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, handleCommand, type CommandContext } from '../../command-handling';
import { CARD_DATASETS, CARD_SETTINGS, type CardDatasets, type CardSettings } from '../card-ports';
import { fxQuote, loadAccount } from '../card-checks';
import { cardCreationsStream, cardStream } from '../streams';
import { newCvv, reserveCardNumber } from './card-credentials';
import { IssueCardCommand, type IssueCardInput, type IssuedCardWithCredentials } from './issue-card.command';

const HOUR = 3_600_000;
const NO_CONTROLS: CardControls = { individual: null, mcc: [], groups: [] };

/** Checks, counts the creation against the entity's hourly limit, reserves a number, issues. */
@CommandHandler(IssueCardCommand)
export class IssueCardHandler implements ICommandHandler<IssueCardCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CARD_DATASETS) private readonly datasets: CardDatasets,
    @Inject(CARD_SETTINGS) private readonly settings: CardSettings,
  ) {}

  async execute({ context, input }: IssueCardCommand): Promise<IssuedCardWithCredentials> {
    if (!currencyInfo(input.currency))
      throw new DomainException(invalid('currency', 'currency must be an ISO 4217 code, USC or UST'));
    const now = this.clock.now();
    const controls = this.controls(input);
    const expiry = this.expiry(input, now);
    const account = await loadAccount(this.store, context.actor, input.account_id);
    // A card in another currency than its account needs a rate to ever spend: refused now, not at the till.
    fxQuote(this.datasets.fx, input.currency, account.currency, 1);
    const cardId = `crd_${ulid()}`;
    await this.count(context, account.entity_id, cardId, now);
    const number = await reserveCardNumber(this.store, this.settings, context, cardId, now);
    const cvv = newCvv();
    const card = this.card(input, account, { cardId, number, cvv, controls, expiry, now });
    const { state } = await handleCommand(
      this.store,
      cardStream(cardId),
      cardDecider,
      { type: 'IssueCard', card },
      context,
      { entityId: account.entity_id },
    );
    if (state.status !== 'issued') throw new Error(`card ${cardId} was not issued`);
    return { card: state, number, cvv };
  }

  private controls(input: IssueCardInput): CardControls {
    if (input.type === 'disposable') return NO_CONTROLS;
    const parsed = parseControls(input, this.datasets.mccGroups);
    if (isDomainError(parsed)) throw new DomainException(parsed);
    return parsed;
  }

  private expiry(input: IssueCardInput, now: number): { month: string; year: string } {
    if (input.type === 'virtual') return virtualExpiry(now);
    const [month, year] = [input.expiration_month ?? '', input.expiration_year ?? ''];
    if (!isFutureExpiry(month, year, now))
      throw new DomainException(invalid('expiration_year', 'the expiry (MM, YY) must be this month or later'));
    return { month, year };
  }

  /** On a stream per entity and clock hour, so every replica counts against the same number. */
  private async count(context: CommandContext, entityId: string, cardId: string, now: number): Promise<void> {
    const limit = this.settings.creationLimitPerHour;
    if (limit === 0) return;
    const hour = Math.floor(now / HOUR) * HOUR;
    const command = { card_id: cardId, limit, now, window_end: hour + HOUR };
    await handleCommand(this.store, cardCreationsStream(entityId, hour), cardCreationCounterDecider, command, context, {
      entityId,
    });
  }

  private card(
    input: IssueCardInput,
    account: OpenAccountState,
    made: {
      cardId: string;
      number: string;
      cvv: string;
      controls: CardControls;
      expiry: { month: string; year: string };
      now: number;
    },
  ): IssuedCard {
    return {
      card_id: made.cardId,
      entity_id: account.entity_id,
      account_id: account.id,
      type: input.type,
      name: input.card_name,
      currency: input.currency,
      amount: input.amount,
      cardholder: input.cardholder,
      billing: input.billing,
      pan: this.box.seal(made.number),
      cvv: this.box.seal(made.cvv),
      last_four: lastFour(made.number),
      expiration_month: made.expiry.month,
      expiration_year: made.expiry.year,
      controls: made.controls,
      transaction_alerts: input.transaction_alerts,
      authorization_fallback: input.authorization_fallback,
      metadata: input.metadata,
      issued: made.now,
    };
  }
}
