export * from './shared';
export * from './access';
