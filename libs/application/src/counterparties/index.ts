export * from './streams';
export * from './account-name';
export * from './counterparties.service';
export * from './counterparty-lookups.service';
