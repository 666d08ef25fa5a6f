export * from './catalogue';
export * from './webhook';
export * from './webhook-index';
