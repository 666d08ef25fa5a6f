export * from './streams';
export * from './entities.service';
