export * from './get-resource-history/get-resource-history.query';
export * from './get-resource-history/get-resource-history.handler';
