export * from './counterparty';
export * from './coordinates/bank-schemes';
export * from './coordinates/wallets';
export * from './payment-detail-index/payment-detail-index';
