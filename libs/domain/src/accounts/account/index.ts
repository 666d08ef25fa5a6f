export * from './account.events';
export * from './account';
export * from './account.decide';
export * from './account.collections';
export { bookTransferReceivedIn } from './account.money';
