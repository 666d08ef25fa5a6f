export * from './process-manager-runner';
