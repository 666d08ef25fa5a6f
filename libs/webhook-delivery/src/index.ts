export * from './webhook-worker.module';
export * from './worker-options';
export * from './card-authorization/endpoint-caller';
