export * from './webhook.events';
export * from './webhook';
export * from './webhook.rules';
export * from './webhook.decide';
