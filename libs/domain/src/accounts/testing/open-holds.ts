import { entries } from '../../shared/persistent-map';
import { openHold, type AccountState } from '../account/account';

/** An account's open holds as a plain record (id → amount + fee), for tests to compare. */
export function openHolds(state: AccountState): Record<string, number> {
  if (state.status !== 'open') return {};
  return Object.fromEntries(Array.from(entries(state.holds), ([id]) => [id, openHold(state, id)!.total]));
}
