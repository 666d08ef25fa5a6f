import { cardNumber, isFutureExpiry, isLuhnValid, luhnCheckDigit, SANDBOX_BIN, virtualExpiry } from './card-number';

describe('card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('424242424242424')).toBe(2);
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
  });

  it('draws 16-digit Luhn-valid numbers on the sandbox BIN', () => {
    for (const digits of ['000000000', '123456789', '999999999']) {
      const n = cardNumber(digits);
      expect(n).toHaveLength(16);
      expect(n.startsWith(SANDBOX_BIN)).toBe(true);
      expect(isLuhnValid(n)).toBe(true);
    }
    expect(() => cardNumber('12')).toThrow();
  });

  it('sets virtual expiry three years ahead and checks requested ones', () => {
    expect(virtualExpiry(Date.UTC(2026, 10, 22))).toEqual({ month: '11', year: '29' });
    const now = Date.UTC(2026, 10, 22);
    expect(isFutureExpiry('11', '26', now)).toBe(true);
    expect(isFutureExpiry('10', '26', now)).toBe(false);
    expect(isFutureExpiry('13', '30', now)).toBe(false);
  });
});
