export * from './intent-action.events';
export * from './intent-action';
export * from './intent-action.decide';
