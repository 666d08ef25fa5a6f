export * from './payment-intent.events';
export * from './payment-intent';
export * from './payment-intent.decide';
export * from './payment-intent.refunds';
