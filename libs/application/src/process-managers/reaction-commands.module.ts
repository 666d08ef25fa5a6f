import { Module } from '@nestjs/common';
import { ApplyCardMoneyHandler, RecoverCardAuthorizationHandler } from '../cards';
import {
  ACQUIRER,
  AUTHORIZATION_DEADLINE,
  AUTHORIZATION_DEADLINE_MS,
  AuthorizeIntentActionHandler,
  FinishRefundHandler,
  RecordRefundHandler,
  SettleIntentActionHandler,
  SimulatedAcquirer,
} from '../collections';
import { IndexPaymentDetailHandler } from '../counterparties';
import { CompleteAutomaticReviewHandler } from '../onboarding';
import { AdvanceTransferHandler, ApplyTransferMoneyHandler, RecoverTransferReservationHandler } from '../transfers';

/**
 * The command handlers process managers send to, with what they need and nothing else (no
 * controller, no read model): the worker's process-managers role boots this module, and the API's
 * feature modules import it for the same handlers (sandbox moves, confirmations send some of them
 * too). One module, so a process that has both builds each handler once.
 *
 * Imported by path, not through the process-managers index, which the features' own files import.
 */
@Module({
  providers: [
    CompleteAutomaticReviewHandler,
    AdvanceTransferHandler,
    ApplyTransferMoneyHandler,
    RecoverTransferReservationHandler,
    IndexPaymentDetailHandler,
    AuthorizeIntentActionHandler,
    SettleIntentActionHandler,
    RecordRefundHandler,
    FinishRefundHandler,
    ApplyCardMoneyHandler,
    RecoverCardAuthorizationHandler,
    // The port: a real acquirer adapter replaces the simulated one here.
    { provide: ACQUIRER, useClass: SimulatedAcquirer },
    // How long a claimed acquirer call is its claimant's alone (tests shorten it).
    { provide: AUTHORIZATION_DEADLINE, useValue: AUTHORIZATION_DEADLINE_MS },
  ],
  exports: [ACQUIRER, AUTHORIZATION_DEADLINE],
})
export class ReactionCommandsModule {}
