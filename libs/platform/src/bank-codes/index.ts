export * from './bank-codes';
