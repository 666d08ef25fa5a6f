import { Module } from '@nestjs/common';
import { ACQUIRER } from './acquirer.port';
import { AuthorizeIntentActionHandler } from './authorize-intent-action/authorize-intent-action.handler';
import { AUTHORIZATION_DEADLINE, AUTHORIZATION_DEADLINE_MS } from './collections-config';
import { FinishRefundHandler } from './finish-refund/finish-refund.handler';
import { RecordRefundHandler } from './record-refund/record-refund.handler';
import { SettleIntentActionHandler } from './settle-intent-action/settle-intent-action.handler';
import { SimulatedAcquirer } from './simulated-acquirer';

/**
 * The collection commands this feature's process managers send (collection-runners.ts), with what
 * they need: the worker's process-managers role imports it, and the API's collections module for
 * the same handlers and the acquirer, so a process that has both builds each once.
 */
@Module({
  providers: [
    AuthorizeIntentActionHandler,
    SettleIntentActionHandler,
    RecordRefundHandler,
    FinishRefundHandler,
    // The port: a real acquirer adapter replaces the simulated one here.
    { provide: ACQUIRER, useClass: SimulatedAcquirer },
    // How long a claimed acquirer call is its claimant's alone (tests shorten it).
    { provide: AUTHORIZATION_DEADLINE, useValue: AUTHORIZATION_DEADLINE_MS },
  ],
  exports: [ACQUIRER, AUTHORIZATION_DEADLINE],
})
export class CollectionReactionsModule {}
