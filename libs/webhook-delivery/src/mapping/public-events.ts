import { ACCOUNT_PUBLIC_EVENTS } from './accounts.public-events';
import { ONBOARDING_PUBLIC_EVENTS } from './onboarding.public-events';
import { TRANSFER_PUBLIC_EVENTS } from './transfers.public-events';
import { COLLECTION_PUBLIC_EVENTS } from './collections.public-events';
import { CARD_PUBLIC_EVENTS } from './cards.public-events';
import type { PublicEventTable } from './public-event';

/**
 * The one table from domain event types to public webhook events. A feature that fires webhook
 * events adds its own table here (transfers' `outflows.*`, payment intents, cards, …).
 */
export const PUBLIC_EVENTS: PublicEventTable = {
  ...ONBOARDING_PUBLIC_EVENTS,
  ...ACCOUNT_PUBLIC_EVENTS,
  ...TRANSFER_PUBLIC_EVENTS,
  ...COLLECTION_PUBLIC_EVENTS,
  ...CARD_PUBLIC_EVENTS,
};
