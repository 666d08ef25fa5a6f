export * from './api-key.events';
export * from './api-key';
export * from './api-key.decide';
export * from './api-version';
