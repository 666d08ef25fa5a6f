export * from './streams';
export * from './signing-key';
export * from './destination';
export * from './webhooks.service';
export * from './deliveries.service';
