import gb from './datasets/gb.json';
import gh from './datasets/gh.json';
import inBanks from './datasets/in.json';
import ke from './datasets/ke.json';
import ng from './datasets/ng.json';
import us from './datasets/us.json';
import za from './datasets/za.json';

/** A bank as `GET /bank-codes/{country}` lists it; sources per country are named in datasets/README.md. */
export interface BankCode {
  readonly bank_code: string;
  readonly bank_name: string;
  readonly swift_bic: string | null;
}

const DATASETS: Readonly<Record<string, readonly BankCode[]>> = {
  GB: gb,
  GH: gh,
  IN: inBanks,
  KE: ke,
  NG: ng,
  US: us,
  ZA: za,
};

export const SUPPORTED_BANK_CODE_COUNTRIES = Object.keys(DATASETS).sort();

/** The banks of an ISO 3166-1 alpha-2 country, or null when no dataset is shipped for it. */
export const bankCodesFor = (country: string): readonly BankCode[] | null => DATASETS[country] ?? null;

const byCode = new Map(
  Object.entries(DATASETS).map(([country, banks]) => [country, new Map(banks.map((b) => [b.bank_code, b]))]),
);

export const findBankByCode = (country: string, code: string): BankCode | null =>
  byCode.get(country)?.get(code) ?? null;

/** BICs are matched on their first 8 characters: a branch code names the same bank. */
export const findBankByBic = (country: string, bic: string): BankCode | null =>
  (DATASETS[country] ?? []).find((b) => b.swift_bic !== null && b.swift_bic.slice(0, 8) === bic.slice(0, 8)) ?? null;
