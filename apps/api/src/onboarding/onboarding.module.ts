import { Module } from '@nestjs/common';
import { EntitiesService } from '@app/application/onboarding';
import { ProjectionRegistry } from '@app/platform/read-store/projection-registry';
import { EntitiesController } from './entities.controller';
import { entityProjection } from './entity.projection';

@Module({
  controllers: [EntitiesController],
  providers: [EntitiesService],
  exports: [EntitiesService],
})
export class OnboardingModule {
  constructor(registry: ProjectionRegistry) {
    registry.register(entityProjection);
  }
}
