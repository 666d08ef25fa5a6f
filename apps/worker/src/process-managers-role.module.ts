import { Module } from '@nestjs/common';
import { CardRunners } from '@app/application/cards';
import { CollectionRunners } from '@app/application/collections';
import { KycReviewRunner } from '@app/application/onboarding';
import { ReactionCommandsModule } from '@app/application/process-managers/reaction-commands.module';
import { TransferRunners } from '@app/application/transfers';
import { ProcessManagerRunners } from '@app/platform/log-processing';

/**
 * The worker's process-managers role: the runtime's registry of leased process managers, the
 * features' registrations (each feature's runners start its managers in it, at bootstrap) and
 * the command handlers they send to. The worker composes them here; the runtime knows no feature.
 * Needs the platform (global) and CqrsModule at the root.
 */
@Module({
  imports: [ReactionCommandsModule],
  providers: [ProcessManagerRunners, KycReviewRunner, TransferRunners, CollectionRunners, CardRunners],
  exports: [ProcessManagerRunners],
})
export class ProcessManagersRoleModule {}
