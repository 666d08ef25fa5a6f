import { Module } from '@nestjs/common';
import {
  AuthenticateIntentActionHandler,
  CancelPaymentIntentHandler,
  CardDecryption,
  COLLECTION_FEES,
  ConfirmPaymentIntentHandler,
  CreatePaymentIntentHandler,
  GetAuthenticationPageHandler,
  GetIntentActionHandler,
  GetPaymentIntentHandler,
  ListRefundsHandler,
  RefundPaymentIntentHandler,
  SubmitAuthenticationPageHandler,
  THREE_DS_BASE_URL,
  VerifyIntentActionHandler,
} from '@app/application/collections';
import { collectionFeesFrom } from '@app/domain/collections';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { CollectionReactionsModule } from '@app/application/collections/collection-reactions.module';
import { ListIntentActionsHandler } from '@app/read-models/collections/list-intent-actions.query-handler';
import { ListPaymentIntentsHandler } from '@app/read-models/collections/list-payment-intents.query-handler';
import { IntentActionsController } from './intent-actions.controller';
import { PaymentIntentsController } from './payment-intents.controller';
import { ThreeDsController } from './three-ds.controller';

@Module({
  // The acquirer port, and Authorize/Settle/RecordRefund (sent by requests and by the process managers).
  imports: [CollectionReactionsModule],
  controllers: [PaymentIntentsController, IntentActionsController, ThreeDsController],
  providers: [
    // Commands
    CreatePaymentIntentHandler,
    ConfirmPaymentIntentHandler,
    CancelPaymentIntentHandler,
    AuthenticateIntentActionHandler,
    VerifyIntentActionHandler,
    RefundPaymentIntentHandler,
    SubmitAuthenticationPageHandler,
    // Queries
    GetPaymentIntentHandler,
    GetIntentActionHandler,
    ListRefundsHandler,
    GetAuthenticationPageHandler,
    ListPaymentIntentsHandler,
    ListIntentActionsHandler,
    CardDecryption,
    // Unknown payment types in COLLECTION_FEES stop the start, rather than being ignored.
    {
      provide: COLLECTION_FEES,
      useFactory: (config: PlatformConfig) => collectionFeesFrom(config.collectionFeesBps),
      inject: [PLATFORM_CONFIG],
    },
    {
      provide: THREE_DS_BASE_URL,
      useFactory: (config: PlatformConfig) => config.publicBaseUrl,
      inject: [PLATFORM_CONFIG],
    },
  ],
})
export class CollectionsModule {}
