import { Module } from '@nestjs/common';
import {
  CreateEntityHandler,
  EntitiesService,
  GetEntityHandler,
  ReviewEntityHandler,
  SubmitOnboardingHandler,
  UpdateEntityHandler,
  UploadDocumentHandler,
} from '@app/application/onboarding';
import { BLOB_STORE, createBlobStore } from '@app/platform/blob-store';
import { OnboardingReactionsModule } from '@app/application/onboarding/onboarding-reactions.module';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { ListEntitiesHandler } from '@app/read-models/onboarding/list-entities.query-handler';
import { EntitiesController } from './entities.controller';
import { OnboardingController } from './onboarding.controller';

@Module({
  // CompleteAutomaticReview (sent by the KYC review) with the other reactions' handlers.
  imports: [OnboardingReactionsModule],
  controllers: [EntitiesController, OnboardingController],
  providers: [
    // Adapters
    { provide: BLOB_STORE, useFactory: (config: PlatformConfig) => createBlobStore(config), inject: [PLATFORM_CONFIG] },
    // Commands
    CreateEntityHandler,
    UpdateEntityHandler,
    UploadDocumentHandler,
    SubmitOnboardingHandler,
    ReviewEntityHandler,
    // Queries
    GetEntityHandler,
    ListEntitiesHandler,
    // For the webhook test samples until they dispatch GetEntityQuery
    EntitiesService,
  ],
  exports: [EntitiesService],
})
export class OnboardingModule {}
