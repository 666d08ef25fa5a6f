import { modeOf } from './event-mode';

describe('modeOf: the one upcaster for modes', () => {
  it('reads the mode recorded in metadata', () => {
    expect(modeOf({ mode: 'live' })).toBe('live');
    expect(modeOf({ mode: 'sandbox' }, { mode: 'live' })).toBe('sandbox');
  });

  it("reads an event older than modes as its creation data's mode, else sandbox", () => {
    expect(modeOf({}, { mode: 'live' })).toBe('live');
    const noMode: { mode?: unknown; account_id: string } = { account_id: 'acc_1' };
    expect(modeOf({}, noMode)).toBe('sandbox');
    expect(modeOf(null)).toBe('sandbox');
  });

  it('never reads anything but "live" as live', () => {
    expect(modeOf({ mode: 'LIVE' })).toBe('sandbox');
    expect(modeOf({}, { mode: 1 })).toBe('sandbox');
  });
});
