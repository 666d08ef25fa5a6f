export * from './counterparty';
export * from './coordinates/bank-schemes';
export * from './coordinates/wallets';
