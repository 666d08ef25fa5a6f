export * from './webhook-index';
