import { cycleStart, dayKey } from './windows';

const at = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h);

describe('usage windows', () => {
  it('days change at 00:00 UTC', () => {
    expect(dayKey(at(2030, 1, 15, 23))).toBe(dayKey(at(2030, 1, 15)));
    expect(dayKey(at(2030, 1, 16))).toBe(dayKey(at(2030, 1, 15)) + 1);
  });

  it('cycles start on their day', () => {
    expect(cycleStart({ billing_cycle: 'Daily', billing_cycle_day: '1' }, at(2030, 1, 15, 10))).toBe(at(2030, 1, 15));
    // 15 January 2030 is a Tuesday.
    expect(cycleStart({ billing_cycle: 'Weekly', billing_cycle_day: 'Monday' }, at(2030, 1, 15, 10))).toBe(
      at(2030, 1, 14),
    );
    expect(cycleStart({ billing_cycle: 'Weekly', billing_cycle_day: 'Tuesday' }, at(2030, 1, 15, 10))).toBe(
      at(2030, 1, 15),
    );
    expect(cycleStart({ billing_cycle: 'Weekly', billing_cycle_day: 'Wednesday' }, at(2030, 1, 15, 10))).toBe(
      at(2030, 1, 9),
    );
    expect(cycleStart({ billing_cycle: 'Monthly', billing_cycle_day: '15' }, at(2030, 1, 14, 23))).toBe(
      at(2029, 12, 15),
    );
    expect(cycleStart({ billing_cycle: 'Monthly', billing_cycle_day: '15' }, at(2030, 1, 15))).toBe(at(2030, 1, 15));
    expect(cycleStart({ billing_cycle: 'Monthly', billing_cycle_day: '1' }, at(2030, 3, 31))).toBe(at(2030, 3, 1));
    expect(cycleStart({ billing_cycle: 'Yearly', billing_cycle_day: '04-06' }, at(2030, 4, 5))).toBe(at(2029, 4, 6));
    expect(cycleStart(null, at(2030, 4, 5))).toBe(0);
  });
});
