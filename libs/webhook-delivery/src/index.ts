export * from './webhook-worker.module';
export * from './worker-options';
