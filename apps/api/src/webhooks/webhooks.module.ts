import { Module } from '@nestjs/common';
import { WebhooksService } from '@app/application/webhooks';
import { OnboardingModule } from '../onboarding/onboarding.module';
import { WebhookLogsController, WebhookTestsController } from './webhook-logs.controller';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [OnboardingModule],
  controllers: [WebhooksController, WebhookLogsController, WebhookTestsController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
