import type { AccountDetailsRecord, Balance, OpenAccountState } from '@app/domain/accounts';
import type { SandboxCredit } from '@app/application/accounts';
import type { AccountBody, AccountDetailsBody, SandboxTransactionBody } from './account.schema';

/** The fields both the folded state and the list document carry. */
export interface AccountView {
  readonly id: string;
  readonly entity_id: string;
  readonly type: 'checking';
  readonly currency: string;
  readonly display_name: string;
  readonly service_ban: string;
  readonly balance: Balance;
  readonly created: number;
  readonly updated: number;
}

/** The presenters return their schema's type (account.schema.ts): the document and the code cannot part. */
export const presentAccount = (a: AccountView): AccountBody => ({
  id: a.id,
  object: 'account',
  entity_id: a.entity_id,
  type: a.type,
  currency: a.currency,
  display_name: a.display_name,
  service_ban: a.service_ban,
  balance: { available: a.balance.available, current: a.balance.current },
  created: a.created,
  updated: a.updated,
});

export const accountView = (s: OpenAccountState, balance: Balance): AccountView => ({ ...s, balance });

export const presentAccountDetails = (d: AccountDetailsRecord): AccountDetailsBody => ({
  id: d.id,
  object: 'account_details',
  entity_id: d.entity_id,
  account_id: d.account_id,
  asset_type: d.asset_type,
  currency: d.currency,
  rail: d.rail,
  account_number: d.account_number,
  issuer: { name: d.issuer.name, code: d.issuer.code },
  status: d.status,
  created: d.created,
  updated: d.updated,
});

/** The spec's sample transaction carries `created_at` as ISO 8601, unlike most objects. */
export const presentCredit = (c: SandboxCredit): SandboxTransactionBody => ({
  id: c.transaction_id,
  object: 'transaction',
  type: 'credit',
  account_id: c.account_id,
  amount: c.amount,
  currency: c.currency,
  status: 'settled',
  created_at: new Date(c.funded).toISOString(),
});
