import { PAYMENT_TYPES, TRANSFER_STATUSES } from '@app/domain/transfers';
import { amount, constant, currency, ms, nullable, obj, oneOfValues, str, stringMap, type Infer } from '../schema-dsl';

/** The transfer as the API and its webhooks show it: the OpenAPI component `Transfer`, and the type its presenter returns. */
export const transferSchema = obj(
  {
    id: str('trf_…'),
    object: constant('transfer'),
    account_id: str('acc_…: the account debited'),
    entity_id: str(),
    counterparty_id: nullable(str()),
    payment_detail_id: str(),
    direction: constant('outflow'),
    currency: currency(),
    amount: amount(),
    fee: amount('Fee in the smallest currency unit'),
    status: oneOfValues(TRANSFER_STATUSES),
    status_reason: nullable(str('snake_case cause, e.g. insufficient_funds, invalid_account_details')),
    payment_type: oneOfValues(PAYMENT_TYPES),
    description: nullable(str()),
    unique_reference: str('The client reference, unique per account'),
    metadata: stringMap(),
    created: ms(),
    updated: ms(),
  },
  { description: 'A payout (decisions §6)' },
);

export type TransferBody = Infer<typeof transferSchema>;
