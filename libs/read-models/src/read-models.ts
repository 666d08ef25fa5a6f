import type { Projection } from '@app/platform/read-store/projection';
import { apiKeyProjection } from './access/api-key.projection';
import { accountProjection } from './accounts/account.projection';
import { paymentDetailProjection } from './counterparties/payment-detail.projection';
import { counterpartyProjection } from './counterparties/counterparty.projection';
import { entityProjection } from './onboarding/entity.projection';
import { statementProjection } from './accounts/statement.projection';
import { transferProjection } from './transfers/transfer.projection';
import { webhookProjection } from './webhooks/webhook.projection';
import { intentActionProjection } from './collections/intent-action.projection';
import { paymentIntentProjection } from './collections/payment-intent.projection';
import { cardProjection } from './cards/card.projection';
import { cardTransactionProjection } from './cards/card-transaction.projection';
import { eventIndexProjection } from './audit/event-index.projection';
import { ledgerProjection } from './ledger/ledger.projection';

/**
 * Every read model of the product, in one list: whichever worker runs the projector role
 * builds exactly this set (and tests, in one process). A new feature adds its projections here.
 */
export const READ_MODELS: readonly Projection[] = [
  apiKeyProjection,
  entityProjection,
  accountProjection,
  counterpartyProjection,
  paymentDetailProjection,
  webhookProjection,
  transferProjection,
  statementProjection,
  paymentIntentProjection,
  intentActionProjection,
  cardProjection,
  cardTransactionProjection,
  eventIndexProjection,
  ledgerProjection,
] as readonly Projection[];
