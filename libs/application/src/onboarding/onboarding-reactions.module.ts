import { Module } from '@nestjs/common';
import { CompleteAutomaticReviewHandler } from './complete-automatic-review/complete-automatic-review.handler';

/**
 * The command the KYC review's process manager sends (kyc-review.process-manager.ts): the worker's
 * process-managers role imports it, and the API's onboarding module for the same handler, so a
 * process that has both builds it once.
 */
@Module({ providers: [CompleteAutomaticReviewHandler] })
export class OnboardingReactionsModule {}
