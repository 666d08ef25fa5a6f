import { composeIBAN, isValidIBAN } from 'ibantools';
import {
  evmAddress,
  isEvmAddress,
  isSolanaAddress,
  isValidNuban,
  nubanCheckDigit,
  solanaAddress,
  type RandomSource,
} from './account-numbers';

export type AssetType = 'fiat' | 'crypto';
export const ASSET_TYPES: readonly AssetType[] = ['fiat', 'crypto'];

export interface Issuer {
  readonly name: string;
  readonly code: string;
}

interface RailSpec {
  readonly asset_type: AssetType;
  /** Who the coordinates point at: a bank and its national code, or the chain. */
  readonly issuer: Issuer;
  newNumber(random: RandomSource): string;
  isValidNumber(value: string): boolean;
}

/** Sandbox issuers. The codes pass their schemes' checks (ABA checksum, BIC format) but name no real bank. */
const US_ISSUER: Issuer = { name: 'Sandbox Bank, N.A.', code: '101000077' };
const NG_BANK_CODE = '999';
/** Lithuanian IBANs, as EU e-money institutions commonly issue; 5-digit bank code then 11 digits. */
const LT_BANK_CODE = '39990';

const digitsNoLeadingZero = (random: RandomSource, count: number) =>
  String(1 + (Number(random.digits(1)) % 9)) + random.digits(count - 1);

const chain = (name: string, code: string, evm: boolean): RailSpec => ({
  asset_type: 'crypto',
  issuer: { name, code },
  newNumber: evm ? evmAddress : solanaAddress,
  isValidNumber: evm ? isEvmAddress : isSolanaAddress,
});

export const RAILS = {
  ach: {
    asset_type: 'fiat',
    issuer: US_ISSUER,
    newNumber: (r) => digitsNoLeadingZero(r, 12),
    isValidNumber: (v) => /^[1-9]\d{11}$/.test(v),
  },
  wire: {
    asset_type: 'fiat',
    issuer: US_ISSUER,
    newNumber: (r) => digitsNoLeadingZero(r, 12),
    isValidNumber: (v) => /^[1-9]\d{11}$/.test(v),
  },
  faster_payments: {
    asset_type: 'fiat',
    issuer: { name: 'Sandbox Bank UK', code: '040999' },
    newNumber: (r) => r.digits(8),
    isValidNumber: (v) => /^\d{8}$/.test(v),
  },
  sepa: {
    asset_type: 'fiat',
    issuer: { name: 'Sandbox Payments UAB', code: 'SBXPLT21XXX' },
    newNumber: (r) => composeIBAN({ countryCode: 'LT', bban: LT_BANK_CODE + r.digits(11) })!,
    isValidNumber: (v) => v.startsWith('LT') && isValidIBAN(v),
  },
  nip: {
    asset_type: 'fiat',
    issuer: { name: 'Sandbox Microfinance Bank', code: NG_BANK_CODE },
    newNumber: (r) => {
      const serial = r.digits(9);
      return serial + nubanCheckDigit(NG_BANK_CODE, serial);
    },
    isValidNumber: (v) => isValidNuban(NG_BANK_CODE, v),
  },
  ethereum: chain('Ethereum', 'ethereum', true),
  base: chain('Base', 'base', true),
  polygon: chain('Polygon', 'polygon', true),
  solana: chain('Solana', 'solana', false),
} satisfies Record<string, RailSpec>;

export type Rail = keyof typeof RAILS;
export const RAIL_NAMES = Object.keys(RAILS) as Rail[];

const STABLECOIN_RAILS: readonly Rail[] = ['ethereum', 'base', 'polygon', 'solana'];

/** The rails each currency can be reached on; the first is the default. Others have none yet. */
export const RAILS_BY_CURRENCY: Readonly<Record<string, readonly Rail[]>> = {
  USD: ['ach', 'wire'],
  GBP: ['faster_payments'],
  EUR: ['sepa'],
  NGN: ['nip'],
  USC: STABLECOIN_RAILS,
  UST: STABLECOIN_RAILS,
};

export const railsFor = (currency: string): readonly Rail[] => RAILS_BY_CURRENCY[currency] ?? [];
export const defaultRail = (currency: string): Rail | null => railsFor(currency)[0] ?? null;
/** Stablecoins are crypto assets; every ISO currency is fiat. */
export const assetTypeOf = (currency: string): AssetType =>
  currency === 'USC' || currency === 'UST' ? 'crypto' : 'fiat';
export const isRail = (value: unknown): value is Rail => typeof value === 'string' && value in RAILS;
