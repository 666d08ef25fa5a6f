import { Module } from '@nestjs/common';
import { CardRunners } from '@app/application/cards';
import { CardReactionsModule } from '@app/application/cards/card-reactions.module';
import { CollectionRunners } from '@app/application/collections';
import { CollectionReactionsModule } from '@app/application/collections/collection-reactions.module';
import { CounterpartyReactionsModule } from '@app/application/counterparties/counterparty-reactions.module';
import { KycReviewRunner } from '@app/application/onboarding';
import { OnboardingReactionsModule } from '@app/application/onboarding/onboarding-reactions.module';
import { TransferRunners } from '@app/application/transfers';
import { TransferReactionsModule } from '@app/application/transfers/transfer-reactions.module';
import { ProcessManagerRunners } from '@app/platform/log-processing';

/**
 * The worker's process-managers role: the runtime's registry of leased process managers, each
 * feature's runners (which start the feature's managers in it at bootstrap) and each feature's
 * module of the commands those send. The worker composes them here; the runtime knows no feature.
 * Needs the platform (global) and CqrsModule at the root.
 */
@Module({
  imports: [
    CardReactionsModule,
    CollectionReactionsModule,
    CounterpartyReactionsModule,
    OnboardingReactionsModule,
    TransferReactionsModule,
  ],
  providers: [ProcessManagerRunners, KycReviewRunner, TransferRunners, CollectionRunners, CardRunners],
  exports: [ProcessManagerRunners],
})
export class ProcessManagersRoleModule {}
