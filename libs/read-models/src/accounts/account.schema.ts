import { ASSET_TYPES, RAIL_NAMES } from '@app/domain/accounts';
import { amount, constant, currency, isoDateTime, ms, obj, oneOfValues, str, type Infer } from '../schema-dsl';

/** The responses of accounts, as OpenAPI components (`Account`, `AccountDetails`, `SandboxTransaction`) and as the types their presenters return. */
export const accountSchema = obj({
  id: str('acc_…'),
  object: constant('account'),
  entity_id: str(),
  type: constant('checking'),
  currency: currency(),
  display_name: str(),
  service_ban: str('Platform-generated bank account number'),
  balance: obj({ available: amount('current − holds'), current: amount() }),
  created: ms(),
  updated: ms(),
});

export const accountDetailsSchema = obj({
  id: str('acd_…'),
  object: constant('account_details'),
  entity_id: str(),
  account_id: str(),
  asset_type: oneOfValues(ASSET_TYPES),
  currency: currency(),
  rail: oneOfValues(RAIL_NAMES),
  account_number: str(),
  issuer: obj({ name: str(), code: str() }),
  status: constant('active'),
  created: ms(),
  updated: ms(),
});

export const sandboxTransactionSchema = obj(
  {
    id: str('txn_…'),
    object: constant('transaction'),
    type: constant('credit'),
    account_id: str(),
    amount: amount(),
    currency: currency(),
    status: constant('settled'),
    created_at: isoDateTime(),
  },
  { description: 'Sandbox funding: the account was credited' },
);

export type AccountBody = Infer<typeof accountSchema>;
export type AccountDetailsBody = Infer<typeof accountDetailsSchema>;
export type SandboxTransactionBody = Infer<typeof sandboxTransactionSchema>;
