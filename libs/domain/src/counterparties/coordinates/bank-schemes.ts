import { electronicFormatIBAN, extractIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { FieldError } from '../../shared';
import { isValidAbaRouting } from '../../accounts/account-numbers';

/** The spec's lookup schemes, plus `iban` (decisions §5), where the IBAN is the code. */
export const BANK_SCHEMES = [
  'aba',
  'au_bsb',
  'br_codigo',
  'ca_cpa',
  'chips',
  'cnaps',
  'gb_sort_code',
  'in_ifsc',
  'swift',
  'za_national_clearing_code',
  'iban',
] as const;
export type BankScheme = (typeof BANK_SCHEMES)[number];
export const isBankScheme = (value: unknown): value is BankScheme => BANK_SCHEMES.includes(value as BankScheme);

interface SchemeRule {
  /** The country whose clearing system issues the code; null when the code itself names it. */
  readonly country: string | null;
  readonly code: (code: string) => boolean;
  readonly codeFormat: string;
  readonly account: RegExp;
  readonly accountFormat: string;
}

const digits = (n: number) => (code: string) => new RegExp(`^\\d{${n}}$`).test(code);
const ALNUM_34 = /^[A-Z0-9]{1,34}$/;

/** Formats and checks of each scheme's bank code and of the account numbers its banks issue. */
const RULES: Record<Exclude<BankScheme, 'iban'>, SchemeRule> = {
  aba: {
    country: 'US',
    code: isValidAbaRouting,
    codeFormat: '9-digit ABA routing number with a valid checksum',
    account: /^\d{4,17}$/,
    accountFormat: '4-17 digits',
  },
  chips: {
    country: 'US',
    code: digits(6),
    codeFormat: '6-digit CHIPS UID',
    account: ALNUM_34,
    accountFormat: '1-34 letters or digits',
  },
  au_bsb: {
    country: 'AU',
    code: digits(6),
    codeFormat: '6-digit BSB',
    account: /^\d{5,9}$/,
    accountFormat: '5-9 digits',
  },
  br_codigo: {
    country: 'BR',
    code: digits(3),
    codeFormat: '3-digit COMPE bank code',
    account: /^\d{1,12}(-[0-9X])?$/,
    accountFormat: '1-12 digits, optionally -check digit',
  },
  // CPA electronic routing: a leading 0, the 3-digit institution number, the 5-digit transit number.
  ca_cpa: {
    country: 'CA',
    code: (c) => /^0\d{8}$/.test(c),
    codeFormat: '9 digits: 0, institution (3), transit (5)',
    account: /^\d{7,12}$/,
    accountFormat: '7-12 digits',
  },
  cnaps: {
    country: 'CN',
    code: digits(12),
    codeFormat: '12-digit CNAPS code',
    account: /^\d{8,30}$/,
    accountFormat: '8-30 digits',
  },
  gb_sort_code: {
    country: 'GB',
    code: digits(6),
    codeFormat: '6-digit sort code',
    account: /^\d{8}$/,
    accountFormat: '8 digits',
  },
  in_ifsc: {
    country: 'IN',
    code: (c) => /^[A-Z]{4}0[A-Z0-9]{6}$/.test(c),
    codeFormat: 'IFSC: 4 letters, 0, 6 letters or digits',
    account: /^\d{9,18}$/,
    accountFormat: '9-18 digits',
  },
  swift: {
    country: null,
    code: (c) => isValidBIC(c),
    codeFormat: '8 or 11-character BIC',
    account: ALNUM_34,
    accountFormat: '1-34 letters or digits',
  },
  za_national_clearing_code: {
    country: 'ZA',
    code: digits(6),
    codeFormat: '6-digit branch code',
    account: /^\d{7,11}$/,
    accountFormat: '7-11 digits',
  },
};

export interface BankCoordinates {
  readonly scheme: BankScheme;
  readonly code: string;
  readonly account_number: string;
  /** ISO 3166-1 alpha-2 of the bank. */
  readonly country: string;
}

export interface CoordinatesInput {
  readonly scheme: BankScheme;
  readonly code: string;
  readonly account_number?: string | null;
  readonly country: string;
}

/**
 * Checks bank coordinates against their scheme. Field names are relative (`code`,
 * `account_number`, `country`) so each caller prefixes them with its own block.
 */
export function checkBankCoordinates(input: CoordinatesInput): BankCoordinates | FieldError[] {
  if (input.scheme === 'iban') return checkIban(input);
  const rule = RULES[input.scheme];
  const code = input.code.toUpperCase();
  if (!rule.code(code)) return [{ field: 'code', message: `code must be a ${rule.codeFormat}` }];
  const country = rule.country ?? code.slice(4, 6);
  if (country !== input.country)
    return [{ field: 'country', message: `a ${input.scheme} code belongs to ${country}, not ${input.country}` }];
  const account = input.account_number ?? '';
  if (!account) return [{ field: 'account_number', message: `account_number is required with scheme ${input.scheme}` }];
  if (!rule.account.test(account.toUpperCase()))
    return [
      { field: 'account_number', message: `account_number must be ${rule.accountFormat} for scheme ${input.scheme}` },
    ];
  const problem = ibanShapedProblem(account.toUpperCase());
  if (problem) return [problem];
  return { scheme: input.scheme, code, account_number: account.toUpperCase(), country };
}

/** Two letters, two digits, 11-30 letters or digits: what an IBAN looks like (decisions §5). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/**
 * An account number shaped like an IBAN is checked as one whatever the scheme (length for its
 * country, format, mod-97), so a broken IBAN cannot slip through under `swift` or `chips`.
 */
function ibanShapedProblem(account: string): FieldError | null {
  if (!IBAN_SHAPE.test(account) || isValidIBAN(account)) return null;
  return {
    field: 'account_number',
    message:
      'account_number has the shape of an IBAN but is not a valid one (country length, format and mod-97 check digits)',
  };
}

/** ibantools checks the country's length and BBAN format and the mod-97 check digits. */
function checkIban(input: CoordinatesInput): BankCoordinates | FieldError[] {
  const iban = electronicFormatIBAN(input.code) ?? '';
  if (!isValidIBAN(iban))
    return [{ field: 'code', message: 'code must be a valid IBAN (country length, format and mod-97 check digits)' }];
  const country = iban.slice(0, 2);
  if (country !== input.country)
    return [{ field: 'country', message: `the IBAN belongs to ${country}, not ${input.country}` }];
  const account = input.account_number ? input.account_number.toUpperCase() : null;
  const problem = account ? ibanShapedProblem(account) : null;
  if (problem) return [problem];
  // Given alongside an IBAN, the account number must be the IBAN itself or the account part inside its BBAN.
  if (account && account !== iban && !(extractIBAN(iban).bban ?? '').includes(account)) {
    return [{ field: 'account_number', message: 'account_number must be part of the IBAN, or be omitted' }];
  }
  return { scheme: 'iban', code: iban, account_number: account ?? iban, country };
}

/** Where a dataset knows banks by code: the bank part of a scheme's code (IBAN bank id, IFSC bank, BIC institution). */
export function bankCodeOf(c: BankCoordinates): string {
  switch (c.scheme) {
    case 'iban':
      return extractIBAN(c.code).bankIdentifier ?? c.code.slice(4, 8);
    case 'in_ifsc':
      return c.code.slice(0, 4);
    case 'swift':
      return c.code.slice(0, 4);
    default:
      return c.code;
  }
}
