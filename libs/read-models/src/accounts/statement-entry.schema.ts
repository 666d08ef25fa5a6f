import { amount, constant, int, ms, nullable, obj, oneOfValues, str, type Infer } from '../schema-dsl';

/**
 * A row of the account statement (`account_transaction`): the OpenAPI component
 * `AccountTransaction` and the line of a monthly statement (the row and its log position), and the
 * types presentStatementEntry and presentLine return.
 */
const statementEntryFields = {
  id: str(),
  object: constant('account_transaction'),
  account_id: str(),
  type: oneOfValues(['credit', 'hold', 'debit', 'release', 'reversal']),
  amount: amount(),
  fee: nullable(amount()),
  transfer_id: nullable(str()),
  transaction_id: nullable(str()),
  payment_intent_id: nullable(str()),
  balance_after: obj({ available: amount(), current: amount() }),
  created: ms(),
};

export const statementEntrySchema = obj(statementEntryFields);

export const statementLineSchema = obj(
  { ...statementEntryFields, position: nullable(int('The event’s log position')) },
  { description: 'A posted account transaction of the month' },
);

export type StatementEntryBody = Infer<typeof statementEntrySchema>;
export type StatementLineBody = Infer<typeof statementLineSchema>;
