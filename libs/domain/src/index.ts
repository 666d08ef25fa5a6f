export * from './shared';
export * from './access';
export * from './accounts';
