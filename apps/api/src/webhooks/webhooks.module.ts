import { Module } from '@nestjs/common';
import { DeliveryStoreModule } from '@app/platform/delivery-store/delivery-store.module';
import {
  CreateWebhookHandler,
  DeleteWebhookHandler,
  GetWebhookHandler,
  RecoverDeliveriesHandler,
  RequestWebhookTestHandler,
  ResendDeliveryHandler,
  RotateWebhookSecretHandler,
  UpdateWebhookHandler,
  WEBHOOK_TEST_SAMPLES,
} from '@app/application/webhooks';
import { GetWebhookStatsHandler } from '@app/read-models/webhooks/get-webhook-stats.query-handler';
import { ListWebhookLogsHandler } from '@app/read-models/webhooks/list-webhook-logs.query-handler';
import { ListWebhooksHandler } from '@app/read-models/webhooks/list-webhooks.query-handler';
import { ApiTestSamples } from './test-samples';
import { WebhookLogsController, WebhookTestsController } from './webhook-logs.controller';
import { WebhookOperationsController } from './webhook-operations.controller';
import { WebhooksController } from './webhooks.controller';

@Module({
  // The log list and statistics read the webhook worker's delivery store.
  imports: [DeliveryStoreModule],
  controllers: [WebhooksController, WebhookOperationsController, WebhookLogsController, WebhookTestsController],
  providers: [
    // Commands
    CreateWebhookHandler,
    UpdateWebhookHandler,
    DeleteWebhookHandler,
    RequestWebhookTestHandler,
    // Decisions §15: resend and recover write the delivery store; rotation the webhook's stream
    ResendDeliveryHandler,
    RecoverDeliveriesHandler,
    RotateWebhookSecretHandler,
    // Queries
    GetWebhookHandler,
    GetWebhookStatsHandler,
    ListWebhooksHandler,
    ListWebhookLogsHandler,
    // Test event data, built with the API's presenters
    { provide: WEBHOOK_TEST_SAMPLES, useClass: ApiTestSamples },
  ],
})
export class WebhooksModule {}
