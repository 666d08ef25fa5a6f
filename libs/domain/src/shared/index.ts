export * from './decider';
export * from './domain-error';
