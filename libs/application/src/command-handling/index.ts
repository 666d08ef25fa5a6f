export * from './actor';
export * from './domain-exception';
export * from './handle-command';
export * from './tenancy';
export { foldStream, foldStreamAt } from './stream-cache';
