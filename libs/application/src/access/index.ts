export * from './api-keys.service';
export * from './bootstrap.service';
export * from './entity-tokens.service';
export * from './streams';
