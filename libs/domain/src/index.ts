export * from './shared';
export * from './access';
export * from './onboarding';
export * from './accounts';
export * from './transfers';
export * from './webhooks';
export * from './counterparties';
export * from './ledger';
