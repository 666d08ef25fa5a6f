import type { BankCoordinates, BankScheme } from '../coordinates/bank-schemes';
import type { Chain } from '../coordinates/wallets';
import type { CounterpartyProfile, CounterpartyType } from './counterparty.profile';

export const PAYMENT_METHODS = ['bank-transfer', 'momo-transfer', 'stablecoin-transfer', 'book-transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface BankBlock {
  readonly account_number: string;
  readonly account_name: string | null;
  readonly scheme: BankScheme;
  readonly code: string;
}
export interface MomoBlock {
  readonly phone_number: string;
  readonly provider: string;
}
export interface WalletBlock {
  readonly address: string;
  readonly chain: Chain;
}
export interface BookBlock {
  readonly account_id: string;
}

/** One block per method: bank-transfer → bank, momo-transfer → momo, stablecoin-transfer → wallet, book-transfer → book. */
export type PaymentDetailBlock =
  | { readonly payment_method: 'bank-transfer'; readonly bank: BankBlock }
  | { readonly payment_method: 'momo-transfer'; readonly momo: MomoBlock }
  | { readonly payment_method: 'stablecoin-transfer'; readonly wallet: WalletBlock }
  | { readonly payment_method: 'book-transfer'; readonly book: BookBlock };

export type PaymentDetailData = PaymentDetailBlock & {
  readonly payment_detail_id: string;
  readonly counterparty_id: string;
  readonly entity_id: string;
  readonly currency: string;
  readonly country: string;
  readonly added: number;
};

export type { BankCoordinates };

/**
 * Payment details are events of the counterparty's stream: "no details on an inactive
 * counterparty" is then one optimistic append, and a reassignment moves them with it.
 * Events carry whole snapshots (profile, nickname, meta) so readers never re-derive merges.
 */
export type CounterpartyEvent =
  | {
      readonly type: 'CounterpartyCreated';
      readonly data: {
        readonly counterparty_id: string;
        readonly entity_id: string;
        readonly type: CounterpartyType;
        readonly nickname: string;
        readonly profile: CounterpartyProfile;
        readonly meta: Readonly<Record<string, string>>;
        readonly created: number;
      };
    }
  | {
      readonly type: 'CounterpartyUpdated';
      readonly data: {
        readonly counterparty_id: string;
        /** The owner after the update; `previous_entity_id` is set when it moved. */
        readonly entity_id: string;
        readonly previous_entity_id: string | null;
        readonly nickname: string;
        readonly profile: CounterpartyProfile;
        readonly meta: Readonly<Record<string, string>>;
        readonly changed: readonly string[];
        /** The details that moved with it, so a read model can follow without reading the stream. */
        readonly payment_detail_ids: readonly string[];
        readonly updated: number;
      };
    }
  | {
      readonly type: 'CounterpartyDeactivated';
      /** Names its payment details: the transfer-ready read model marks each one without reading the stream. */
      readonly data: {
        readonly counterparty_id: string;
        readonly entity_id: string;
        readonly payment_detail_ids: readonly string[];
        readonly deactivated: number;
      };
    }
  | { readonly type: 'PaymentDetailAdded'; readonly data: PaymentDetailData };

export type CounterpartyEventType = CounterpartyEvent['type'];
export const COUNTERPARTY_EVENT_TYPES: readonly CounterpartyEventType[] = [
  'CounterpartyCreated',
  'CounterpartyUpdated',
  'CounterpartyDeactivated',
  'PaymentDetailAdded',
];
