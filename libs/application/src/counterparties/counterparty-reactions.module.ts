import { Module } from '@nestjs/common';
import { IndexPaymentDetailHandler } from './index-payment-detail/index-payment-detail.handler';

/**
 * The command the payment-detail index's process manager sends (transfer-runners.ts starts it):
 * the worker's process-managers role imports it, and the API's counterparties module for the same
 * handler, so a process that has both builds it once.
 */
@Module({ providers: [IndexPaymentDetailHandler] })
export class CounterpartyReactionsModule {}
