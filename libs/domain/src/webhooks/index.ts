export * from './catalogue';
export * from './webhook';
export * from './delivery';
