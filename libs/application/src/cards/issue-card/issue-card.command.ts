import { Command } from '@nestjs/cqrs';
import type {
  Address,
  AuthorizationFallback,
  Cardholder,
  CardType,
  ControlsInput,
  IssuedCardState,
} from '@app/domain/cards';
import type { CommandContext } from '../../command-handling';

export interface IssueCardInput extends ControlsInput {
  readonly type: CardType;
  readonly account_id: string;
  readonly card_name: string;
  readonly cardholder: Cardholder;
  readonly currency: string;
  readonly amount: number;
  /** Disposable cards: as requested; virtual cards: three years ahead. */
  readonly expiration_month: string | null;
  readonly expiration_year: string | null;
  readonly billing: Address | null;
  readonly transaction_alerts: boolean;
  readonly authorization_fallback: AuthorizationFallback;
  readonly metadata: Readonly<Record<string, string>>;
}

/** The new card and its credentials in clear: only this answer and GET /card-details carry them. */
export interface IssuedCardWithCredentials {
  readonly card: IssuedCardState;
  readonly number: string;
  readonly cvv: string;
}

export class IssueCardCommand extends Command<IssuedCardWithCredentials> {
  constructor(
    readonly context: CommandContext,
    readonly input: IssueCardInput,
  ) {
    super();
  }
}
