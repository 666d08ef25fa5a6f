export * from './streams';
export * from './payment-detail-lookup';
export * from './finish-reservation';
export * from './transfers.service';
export * from './transfer-money.process-manager';
export * from './transfer-rails.process-manager';
export * from './transfer-recovery.process-manager';
export * from './transfer-runners';
