export * from './checkpointed-reader';
export * from './log-processor';
export * from './process-manager';
export * from './process-manager-runner';
export * from './process-manager-runners';
