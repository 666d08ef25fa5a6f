import type { FxTable, MccGroups } from '@app/domain/cards';

/** Time for cards (usage days and cycles, expiry, the creation window): injectable, so tests move it. */
export interface Clock {
  now(): number;
}
export const CARD_CLOCK = Symbol('CARD_CLOCK');
export const systemClock: Clock = { now: () => Date.now() };

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
