export * from './delivery-queue';
