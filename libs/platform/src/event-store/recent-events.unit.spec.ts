import type { RecordedEvent } from './event-store.port';
import { RecentEvents } from './recent-events';

const event = (position: number, text = 'x'): RecordedEvent => ({
  id: `evt-${position}`,
  streamId: 'account-1',
  type: 'FundsHeld',
  data: { text },
  metadata: { event_id: `evt-${position}` } as RecordedEvent['metadata'],
  revision: position - 1,
  position,
});

describe('RecentEvents', () => {
  it('serves consecutive positions after a given one, and nothing past a gap', () => {
    const recent = new RecentEvents();
    recent.remember([event(1), event(2), event(3), event(5)]);
    expect(recent.after(0, 10).map((e) => e.position)).toEqual([1, 2, 3]);
    expect(recent.after(1, 1).map((e) => e.position)).toEqual([2]);
    expect(recent.after(3, 10)).toEqual([]);
  });

  it('holds what its byte budget allows, dropping the oldest: large events count for more', () => {
    const recent = new RecentEvents(10_000);
    /** How many consecutive events up to `last` are held. */
    const heldUpTo = (last: number) => {
      let n = 0;
      while (recent.after(last - n - 1, 1)[0]?.position === last - n) n++;
      return n;
    };
    recent.remember(Array.from({ length: 200 }, (_, i) => event(i + 1)));
    expect(recent.bytes).toBeLessThanOrEqual(10_000);
    const small = heldUpTo(200);
    expect(small).toBeGreaterThan(10);
    expect(small).toBeLessThan(200);
    expect(recent.after(0, 10)).toEqual([]);

    recent.remember(Array.from({ length: 200 }, (_, i) => event(201 + i, 'y'.repeat(1_000))));
    expect(recent.bytes).toBeLessThanOrEqual(10_000);
    const large = heldUpTo(400);
    expect(large).toBeGreaterThan(0);
    expect(large).toBeLessThan(small);
  });
});
