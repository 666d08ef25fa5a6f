import { arrayOf, currency, dataEnvelope, int, obj, oneOfValues, str, type Infer, type Typed } from '../schema-dsl';

/**
 * The books as `GET /ledger` shows them (decisions §12): the OpenAPI component `Ledger` (in its
 * `{data}` envelope), and the type the query answers (LedgerView).
 */

const LEDGER_KINDS = ['customer', 'funding', 'fees', 'fx', 'clearing'] as const;

/** An integer the ledger holds as a bigint (exact at any size) and writes in JSON with every digit. */
const bigInteger = (): Typed<bigint> => ({ type: 'integer' });

const figures = {
  debits_posted: bigInteger(),
  credits_posted: bigInteger(),
  debits_pending: bigInteger(),
  credits_pending: bigInteger(),
};
export const ledgerSchema = obj({
  position: int('The log position the books are at'),
  currencies: arrayOf(obj({ currency: currency(), ...figures })),
  accounts: arrayOf(
    obj({
      id: str('acc_… or a system account: funding:USD, fees:USD, fx:USD, clearing:<rail>:USD'),
      kind: oneOfValues(LEDGER_KINDS),
      currency: currency(),
      ...figures,
    }),
  ),
});

export const ledgerEnvelopeSchema = dataEnvelope(ledgerSchema, 'The books of an organization and mode (decisions §12)');

export type LedgerBody = Infer<typeof ledgerSchema>;
