export * from './payment-intent';
export * from './intent-action';
export * from './reference/intent-reference';
export * from './collection-fees';
export * from './card/card-data';
