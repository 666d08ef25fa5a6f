import { currencyInfo, isSupportedCurrency, isValidAmount } from './currency';

describe('currencies', () => {
  it.each([
    ['USD', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['NGN', 2],
    ['USC', 6],
    ['UST', 6],
  ])('knows %s with %i minor units', (code, minor) => {
    expect(currencyInfo(code)).toEqual({ code, minor_units: minor });
  });

  it.each(['usd', 'US', 'USDT', 'ABC', 'XAU', 'XTS', 'XXX', ''])('refuses %p', (code) => {
    expect(currencyInfo(code)).toBeNull();
    expect(isSupportedCurrency(code)).toBe(false);
  });

  it('accepts only positive safe integers as amounts', () => {
    expect(isValidAmount(1)).toBe(true);
    expect(isValidAmount(Number.MAX_SAFE_INTEGER)).toBe(true);
    for (const bad of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity, '100'])
      expect(isValidAmount(bad)).toBe(false);
  });
});
