import bs58 from 'bs58';
import { keccak_256 } from '@noble/hashes/sha3';
import { parsePhoneNumberFromString, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';

export const CHAINS = ['ethereum', 'solana', 'base', 'polygon'] as const;
export type Chain = (typeof CHAINS)[number];

/** EIP-55: a letter is upper case exactly when the matching nibble of keccak256(lower-case hex) is ≥ 8. */
export function isEip55Checksummed(address: string): boolean {
  const hex = address.slice(2);
  const hash = Buffer.from(keccak_256(hex.toLowerCase())).toString('hex');
  return [...hex].every((ch, i) =>
    /[0-9]/.test(ch) ? true : parseInt(hash[i], 16) >= 8 === (ch === ch.toUpperCase()),
  );
}

/** All-lower or all-upper hex carries no checksum; mixed case must pass EIP-55. */
export function isEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return isEip55Checksummed(address);
}

/** A Solana address is the base58 of a 32-byte ed25519 public key. */
export function isSolanaAddress(address: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return false;
  try {
    return bs58.decode(address).length === 32;
  } catch {
    return false;
  }
}

export const isWalletAddress = (chain: Chain, address: string) =>
  chain === 'solana' ? isSolanaAddress(address) : isEvmAddress(address);

/** E.164 (`+` and up to 15 digits) that libphonenumber knows as a valid number of `country`. */
export function phoneProblem(number: string, country: string | null): string | null {
  if (!/^\+[1-9]\d{6,14}$/.test(number)) return 'must be in E.164 format, e.g. +254712345678';
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed || !parsed.isValid()) return 'is not a valid phone number';
  if (country) {
    let code: string;
    try {
      code = getCountryCallingCode(country as CountryCode);
    } catch {
      return `country ${country} has no calling code`;
    }
    if (parsed.countryCallingCode !== code) return `is not a ${country} number (+${code})`;
  }
  return null;
}

/** The country libphonenumber assigns to a valid number, or null when ambiguous. */
export const phoneCountry = (number: string): string | null => parsePhoneNumberFromString(number)?.country ?? null;
