export * from "./bank-codes";
