import { Module } from '@nestjs/common';
import { ApplyCardMoneyHandler } from './apply-card-money/apply-card-money.handler';
import { RecoverCardAuthorizationHandler } from './recover-card-authorization/recover-card-authorization.handler';

/**
 * The card commands this feature's process managers send (card-runners.ts), with nothing else: the
 * worker's process-managers role imports it, and the API's cards module for the same handlers, so a
 * process that has both builds each once. Imported by path (the barrel is what the handlers import).
 */
@Module({ providers: [ApplyCardMoneyHandler, RecoverCardAuthorizationHandler] })
export class CardReactionsModule {}
