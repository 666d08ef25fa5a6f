export * from './catalogue';
export * from './webhook';
export * from './webhook-index';
export * from './delivery';
export * from './delivery-queue';
