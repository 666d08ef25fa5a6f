export * from './counterparty.events';
export * from './counterparty.profile';
export * from './counterparty';
export * from './counterparty.decide';
export * from './payment-detail.check';
