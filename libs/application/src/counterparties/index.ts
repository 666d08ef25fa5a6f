export * from './streams';
export * from './account-name';
export * from './counterparties.service';
export * from './counterparty-lookups.service';
export * from './payment-detail-index';
export * from './payment-detail-index.process-manager';
