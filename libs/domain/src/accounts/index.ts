// Number-format helpers stay behind a deep import so they cannot clash with other contexts' names.
export { newServiceBan, isValidServiceBan, type RandomSource } from './account-numbers';
export * from './currency';
export * from './rails';
export * from './account';
export * from './reservations';
