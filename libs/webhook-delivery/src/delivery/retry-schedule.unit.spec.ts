import { nextAttemptAt } from './retry-schedule';

describe('the retry schedule', () => {
  const schedule = [0, 1000, 5000];

  it('waits entry n after attempt n failed', () => {
    expect(nextAttemptAt(schedule, 1, 100)).toBe(1100);
    expect(nextAttemptAt(schedule, 2, 100)).toBe(5100);
  });

  it('has no attempt after the last entry', () => {
    expect(nextAttemptAt(schedule, 3, 100)).toBeNull();
    expect(nextAttemptAt([0], 1, 100)).toBeNull();
  });
});
