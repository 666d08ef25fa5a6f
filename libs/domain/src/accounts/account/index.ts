export * from './account.events';
export * from './account';
export * from './account.decide';
