export * from './entity.events';
export * from './entity';
export * from './entity.decide';
export * from './entity.update';
export * from './entity.review';
