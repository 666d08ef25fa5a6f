export * from './api-key';
export * from './entity-token/entity-token';
