export * from './delivery.events';
export * from './delivery';
export * from './delivery.decide';
