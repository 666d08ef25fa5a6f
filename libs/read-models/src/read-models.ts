import type { Projection } from '@app/platform/read-store/projection';
import { apiKeyProjection } from './access/api-key.projection';
import { accountProjection } from './accounts/account.projection';
import { paymentDetailProjection } from './counterparties/payment-detail.projection';
import { counterpartyProjection } from './counterparties/counterparty.projection';
import { entityProjection } from './onboarding/entity.projection';
import { statementProjection } from './accounts/statement.projection';
import { transferProjection } from './transfers/transfer.projection';
import { webhookLogProjection } from './webhooks/webhook-log.projection';
import { webhookProjection } from './webhooks/webhook.projection';
import { dueDeliveriesProjection } from './webhooks/due-deliveries.projection';
import { intentActionProjection } from './collections/intent-action.projection';
import { paymentIntentProjection } from './collections/payment-intent.projection';
import { cardProjection } from './cards/card.projection';
import { cardTransactionProjection } from './cards/card-transaction.projection';
import { eventIndexProjection } from './audit/event-index.projection';

/**
 * Every read model of the product, in one list: the all-in-one process and a standalone
 * projector deployment build exactly the same set. A new feature adds its projections here.
 */
export const READ_MODELS: readonly Projection[] = [apiKeyProjection, entityProjection, accountProjection, counterpartyProjection, paymentDetailProjection, webhookProjection, webhookLogProjection, dueDeliveriesProjection, transferProjection, statementProjection, paymentIntentProjection, intentActionProjection, cardProjection, cardTransactionProjection, eventIndexProjection] as readonly Projection[];
