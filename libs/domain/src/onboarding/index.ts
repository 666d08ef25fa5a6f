export * from './entity';
