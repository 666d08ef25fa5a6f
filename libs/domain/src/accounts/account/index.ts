export * from './account.events';
export * from './account';
export * from './account.decide';
export * from './account.collections';
export * from './account.closed-hold';
export { bookTransferReceivedIn, heldTransferFor } from './account.money';
