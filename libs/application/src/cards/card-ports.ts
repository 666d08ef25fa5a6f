import type { ExistingWebhook } from '@app/domain';
import type { CardTransactionRecord, FxTable, MccGroups } from '@app/domain/cards';
import type { Mode } from '@app/platform/event-store/event-mode';

/** The datasets the cards feature decides with (loaded once at start). */
export interface CardDatasets {
  readonly fx: FxTable;
  readonly mccGroups: MccGroups;
}
export const CARD_DATASETS = Symbol('CARD_DATASETS');

export interface CardSettings {
  /** 0: no limit. */
  readonly creationLimitPerHour: number;
  /** Keyed digest of a card number, for its reservation stream (HMAC under the master key). */
  numberDigest(number: string): string;
}
export const CARD_SETTINGS = Symbol('CARD_SETTINGS');

/** Decisions §16: what the entity's authorization endpoint said, as the caller saw it. */
export interface EndpointReply {
  /** Null: no HTTP answer (timeout, unreachable, refused destination) or not asked (over the concurrency limit). */
  readonly status: number | null;
  readonly body: string | null;
  readonly latency_ms: number | null;
  /** Not asked: the entity already has this many requests waiting on its endpoint. */
  readonly limited: boolean;
}

export interface AuthorizationRequest {
  readonly webhook: ExistingWebhook;
  readonly organization_id: string;
  readonly mode: Mode;
  /** The card transaction as it would be (pending). */
  readonly transaction: CardTransactionRecord;
  readonly trace_id?: string;
}

/** Signs and POSTs `card_authorizations.request`, logs it as one attempt of that webhook, never throws. */
export interface AuthorizationEndpointCaller {
  ask(request: AuthorizationRequest): Promise<EndpointReply>;
}
export const CARD_AUTHORIZATION_CALLER = Symbol('CARD_AUTHORIZATION_CALLER');
