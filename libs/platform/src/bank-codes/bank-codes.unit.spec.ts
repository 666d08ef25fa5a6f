import { isValidBIC } from 'ibantools';
import { isValidAbaRouting } from '@app/domain/accounts/account-numbers';
import { bankCodesFor, findBankByBic, findBankByCode, SUPPORTED_BANK_CODE_COUNTRIES } from './bank-codes';

describe('bank codes datasets', () => {
  it('ships at least NG, GH, KE, ZA, US, GB and IN', () => {
    expect(SUPPORTED_BANK_CODE_COUNTRIES).toEqual(expect.arrayContaining(['NG', 'GH', 'KE', 'ZA', 'US', 'GB', 'IN']));
  });

  it.each(SUPPORTED_BANK_CODE_COUNTRIES)(
    '%s: every entry has the one shape, unique codes and well-formed BICs of its country',
    (country) => {
      const banks = bankCodesFor(country)!;
      expect(banks.length).toBeGreaterThan(10);
      expect(new Set(banks.map((b) => b.bank_code)).size).toBe(banks.length);
      for (const b of banks) {
        expect(Object.keys(b).sort()).toEqual(['bank_code', 'bank_name', 'swift_bic']);
        expect(b.bank_name.trim()).not.toBe('');
        if (b.swift_bic !== null) {
          expect(isValidBIC(b.swift_bic)).toBe(true);
          expect(b.swift_bic.slice(4, 6)).toBe(country);
        }
      }
    },
  );

  it('uses each country national code format', () => {
    expect(bankCodesFor('US')!.every((b) => isValidAbaRouting(b.bank_code))).toBe(true);
    expect(bankCodesFor('ZA')!.every((b) => /^\d{6}$/.test(b.bank_code))).toBe(true);
    expect(bankCodesFor('KE')!.every((b) => /^\d{2}$/.test(b.bank_code))).toBe(true);
    expect(bankCodesFor('GH')!.every((b) => /^\d{6}$/.test(b.bank_code))).toBe(true);
    expect(bankCodesFor('IN')!.every((b) => /^[A-Z]{4}$/.test(b.bank_code))).toBe(true);
  });

  it('finds known banks by code and by BIC, and nothing for an unknown one', () => {
    expect(findBankByCode('NG', '058')?.bank_name).toMatch(/GUARANTY TRUST/i);
    expect(findBankByCode('ZA', '632005')?.swift_bic).toBe('ABSAZAJJ');
    expect(findBankByCode('IN', 'SBIN')?.bank_name).toMatch(/State Bank of India/i);
    expect(findBankByBic('KE', 'EQBLKENAXXX')?.bank_code).toBe('68');
    expect(findBankByCode('ZA', '999999')).toBeNull();
    expect(bankCodesFor('FR')).toBeNull();
  });
});
