import { convert, fxRate, type FxTable } from './fx';

const TABLE: FxTable = {
  date: '2026-11-20',
  base: 'USD',
  source: 'test',
  rates: { USD: 1, EUR: 0.92, JPY: 154.5, USC: 1 },
};

describe('sandbox FX', () => {
  it('derives cross rates from the base, rounded to 8 decimals', () => {
    expect(fxRate(TABLE, 'USD', 'EUR')).toBe(0.92);
    expect(fxRate(TABLE, 'EUR', 'USD')).toBe(1.08695652);
    expect(fxRate(TABLE, 'USD', 'USD')).toBe(1);
    expect(fxRate(TABLE, 'USD', 'XXX')).toBeNull();
  });

  it('converts minor units to minor units, half up', () => {
    expect(convert(1_000, 0.92, 2, 2)).toBe(920);
    expect(convert(1_001, 0.92, 2, 2)).toBe(921); // 920.92
    expect(convert(100, 154.5, 2, 0)).toBe(155); // 154.5 → 155
    expect(convert(1, 154.5, 2, 0)).toBe(2); // 1.545 → 2
    expect(convert(1_000_000, 1, 2, 6)).toBe(10_000_000_000); // USD cents → USDC micro-units
    expect(convert(5, 0.1, 2, 2)).toBe(1); // 0.5 → 1 despite binary floats
  });
});
