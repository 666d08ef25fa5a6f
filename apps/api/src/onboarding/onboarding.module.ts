import { Module } from '@nestjs/common';
import { DocumentsService, EntitiesService, KycReviewRunner, OnboardingService } from '@app/application/onboarding';
import { BLOB_STORE, createBlobStore } from '@app/platform/blob-store';
import { PLATFORM_CONFIG, type PlatformConfig } from '@app/platform/config/platform-config';
import { EntitiesController } from './entities.controller';
import { OnboardingController } from './onboarding.controller';

@Module({
  controllers: [EntitiesController, OnboardingController],
  providers: [
    // Adapters
    { provide: BLOB_STORE, useFactory: (config: PlatformConfig) => createBlobStore(config), inject: [PLATFORM_CONFIG] },
    // Use cases
    EntitiesService,
    DocumentsService,
    OnboardingService,
    // Process managers
    KycReviewRunner,
  ],
  exports: [EntitiesService],
})
export class OnboardingModule {}
