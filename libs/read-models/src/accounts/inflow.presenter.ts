import type { RecordedInflow } from '@app/domain/accounts/inflow-reference/inflow-reference';
import type { Mode } from '@app/platform/event-store/event-mode';
import { presentStatementEntry, statementEntryId, type StatementEntry } from './statement.projection';

/**
 * An inflow as GET /accounts/{id}/transactions lists it (decisions §11): the statement entry its
 * `AccountFunded` event projects to, built from the same revision, so the 201 (or the 409's first
 * transaction) and the statement show one and the same entry.
 */
export function presentInflowTransaction(
  t: RecordedInflow,
  owner: { readonly organization_id: string; readonly mode: Mode },
) {
  const entry: StatementEntry = {
    id: statementEntryId(t.account_id, t.revision),
    organization_id: owner.organization_id,
    mode: owner.mode,
    account_id: t.account_id,
    type: 'credit',
    amount: t.amount,
    fee: null,
    transfer_id: null,
    transaction_id: t.transaction_id,
    balance_after: t.balance_after,
    created: t.funded,
  };
  return presentStatementEntry(entry);
}
