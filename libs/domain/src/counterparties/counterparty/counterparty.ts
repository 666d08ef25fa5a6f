import type { CounterpartyEvent, PaymentDetailData } from './counterparty.events';
import type { CounterpartyProfile, CounterpartyType } from './counterparty.profile';

export interface CounterpartyRecord {
  readonly id: string;
  readonly entity_id: string;
  readonly type: CounterpartyType;
  readonly nickname: string;
  readonly profile: CounterpartyProfile;
  readonly meta: Readonly<Record<string, string>>;
  readonly status: 'active' | 'inactive';
  readonly payment_details: readonly PaymentDetailData[];
  readonly created: number;
  readonly updated: number;
}

export type CounterpartyState = { readonly status: 'none' } | CounterpartyRecord;
export type ExistingCounterparty = CounterpartyRecord;

export const initialCounterpartyState: CounterpartyState = { status: 'none' };

export function evolveCounterparty(state: CounterpartyState, event: CounterpartyEvent): CounterpartyState {
  if (event.type === 'CounterpartyCreated') {
    if (state.status !== 'none') return state;
    const { counterparty_id, created, ...rest } = event.data;
    return { ...rest, id: counterparty_id, status: 'active', payment_details: [], created, updated: created };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CounterpartyUpdated': {
      const { entity_id, nickname, profile, meta, updated } = event.data;
      // Details follow their counterparty to its new entity.
      const payment_details = state.payment_details.map((d) => ({ ...d, entity_id }));
      return { ...state, entity_id, nickname, profile, meta, payment_details, updated };
    }
    case 'CounterpartyDeactivated':
      return { ...state, status: 'inactive', updated: event.data.deactivated };
    case 'PaymentDetailAdded':
      // A payment detail is its own record; the counterparty object itself does not change.
      return { ...state, payment_details: [...state.payment_details, event.data] };
    default:
      return state;
  }
}
