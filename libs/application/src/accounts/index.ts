export * from './accounts.service';
export * from './account-details.service';
export * from './random';
export * from './reserve-unique';
export * from './streams';
