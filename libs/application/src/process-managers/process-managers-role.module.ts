import { Module } from '@nestjs/common';
import { CardRunners } from '../cards';
import { CollectionRunners } from '../collections';
import { KycReviewRunner } from '../onboarding';
import { TransferRunners } from '../transfers';
import { ProcessManagerRunners } from '@app/platform/log-processing';
import { ReactionCommandsModule } from './reaction-commands.module';

/**
 * The worker's process-managers role (apps/worker): every process manager, each under its lease,
 * and the command handlers they send to. Needs the platform (global) and CqrsModule at the root.
 * Imported by path, like ReactionCommandsModule.
 */
@Module({
  imports: [ReactionCommandsModule],
  providers: [ProcessManagerRunners, KycReviewRunner, TransferRunners, CollectionRunners, CardRunners],
  exports: [ProcessManagerRunners],
})
export class ProcessManagersRoleModule {}
