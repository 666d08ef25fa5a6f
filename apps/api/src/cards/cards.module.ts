import { createHmac } from 'node:crypto';
import { Module } from '@nestjs/common';
import {
  AuthorizeCardHandler,
  CARD_AUTHORIZATION_CALLER,
  CARD_DATASETS,
  CARD_SETTINGS,
  ChangeCardStatusHandler,
  GetCardHandler,
  IssueCardHandler,
  ReassignCardHandler,
  SettleCardTransactionHandler,
  type CardSettings,
} from '@app/application/cards';
import { ListCardsHandler } from '@app/read-models/cards/list-cards.query-handler';
import { ListCardTransactionsHandler } from '@app/read-models/cards/list-card-transactions.query-handler';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { DELIVERY_STORE, type DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { DeliveryStoreModule } from '@app/platform/delivery-store/delivery-store.module';
import { SECRET_BOX, type SecretBox } from '@app/platform/security/secret-box';
import { HttpsAuthorizationCaller } from '@app/webhook-delivery/card-authorization/endpoint-caller';
import { AuthorizationRelays } from '@app/webhook-delivery/card-authorization/relays';
import { CardReactionsModule } from '@app/application/cards/card-reactions.module';
import { CLOCK, type Clock } from '@app/platform/clock';
import { loadCardDatasets } from './card-datasets.loader';
import { CardsController } from './cards.controller';
import { CardTransactionsController } from './sandbox-cards.controller';
import { AuthorizationRelayController } from './authorization-relay.controller';

const settings = (config: PlatformConfig): CardSettings => ({
  creationLimitPerHour: config.cardCreationLimitPerHour,
  // Keyed: a plain hash of a 16-digit number with a known BIN could be reversed by brute force.
  numberDigest: (number) => createHmac('sha256', config.masterKey).update(`card-number:${number}`).digest('hex'),
});

@Module({
  // The card clock, and ApplyCardMoney (sent by the card-money process manager).
  imports: [CardReactionsModule, DeliveryStoreModule],
  controllers: [CardsController, CardTransactionsController, AuthorizationRelayController],
  providers: [
    IssueCardHandler,
    ChangeCardStatusHandler,
    ReassignCardHandler,
    AuthorizeCardHandler,
    SettleCardTransactionHandler,
    GetCardHandler,
    ListCardsHandler,
    ListCardTransactionsHandler,
    // A missing or malformed dataset stops the start rather than failing the first authorization.
    {
      provide: CARD_DATASETS,
      useFactory: (config: PlatformConfig) => loadCardDatasets(config.fxRatesFile),
      inject: [PLATFORM_CONFIG],
    },
    { provide: CARD_SETTINGS, useFactory: settings, inject: [PLATFORM_CONFIG] },
    // Decisions §16: the entity's authorization endpoint, asked like a delivery and logged as one (or relayed to `npm run listen`).
    { provide: AuthorizationRelays, inject: [CLOCK], useFactory: (clock: Clock) => new AuthorizationRelays(clock) },
    {
      provide: CARD_AUTHORIZATION_CALLER,
      inject: [DELIVERY_STORE, SECRET_BOX, CLOCK, PLATFORM_CONFIG, AuthorizationRelays],
      useFactory: (
        deliveries: DeliveryStore,
        box: SecretBox,
        clock: Clock,
        config: PlatformConfig,
        relays: AuthorizationRelays,
      ) =>
        new HttpsAuthorizationCaller(
          deliveries,
          box,
          clock,
          {
            timeoutMs: config.cardAuthorizationTimeoutMs,
            allowPrivate: config.webhookAllowPrivateNetworks,
            perEntityLimit: config.cardAuthorizationConcurrency,
          },
          relays,
        ),
    },
  ],
})
export class CardsModule {}
