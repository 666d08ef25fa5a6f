import {
  base58,
  isLuhnValid,
  isSolanaAddress,
  isValidAbaRouting,
  isValidNuban,
  isValidServiceBan,
  luhnCheckDigit,
  newServiceBan,
  nubanCheckDigit,
} from './account-numbers';
import { seededRandom } from './testing/fixed-random';

describe('account number formats', () => {
  it('computes Luhn check digits on the textbook example', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
  });

  it('draws service BANs of 10 digits whose last is a Luhn check digit', () => {
    const random = seededRandom(7);
    const bans = Array.from({ length: 500 }, () => newServiceBan(random));
    for (const ban of bans) expect(isValidServiceBan(ban)).toBe(true);
    expect(new Set(bans).size).toBeGreaterThan(495);
  });

  it('refuses a service BAN with one digit changed', () => {
    const ban = newServiceBan(seededRandom(3));
    const changed = ban.slice(0, 4) + String((Number(ban[4]) + 1) % 10) + ban.slice(5);
    expect(isValidServiceBan(changed)).toBe(false);
    expect(isValidServiceBan('0' + ban.slice(1))).toBe(false);
  });

  it("computes NUBAN check digits as in the CBN's worked example (bank 011, serial 000001457)", () => {
    expect(nubanCheckDigit('011', '000001457')).toBe('9');
    expect(isValidNuban('011', '0000014579')).toBe(true);
    expect(isValidNuban('011', '0000014578')).toBe(false);
    expect(isValidNuban('058', '0000014579')).toBe(false);
  });

  it('checks ABA routing numbers', () => {
    expect(isValidAbaRouting('021000021')).toBe(true);
    expect(isValidAbaRouting('011000015')).toBe(true);
    expect(isValidAbaRouting('021000022')).toBe(false);
    expect(isValidAbaRouting('02100002')).toBe(false);
  });

  it('encodes base58 as Bitcoin and Solana do', () => {
    expect(base58(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    // The Solana system program id is 32 zero bytes.
    expect(base58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(isSolanaAddress(base58(seededRandom(2).bytes(32)))).toBe(true);
  });
});
