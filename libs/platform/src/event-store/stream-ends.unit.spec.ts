import { StreamEnds } from './stream-ends';

describe('StreamEnds: bounded, least recently used out first', () => {
  it('keeps a stream that is read on every request while many new ones are raised', () => {
    const ends = new StreamEnds(4);
    ends.raise('api-key', 0);
    for (let i = 0; i < 100; i++) {
      expect(ends.get('api-key')).toBe(0);
      ends.raise(`transfer-${i}`, 1);
    }
    expect(ends.get('transfer-0')).toBeUndefined();
    expect(ends.get('transfer-99')).toBe(1);
  });

  it('only ever raises an end, and forgets a stream when told', () => {
    const ends = new StreamEnds(4);
    ends.raise('s', 3);
    ends.raise('s', 1);
    expect(ends.get('s')).toBe(3);
    ends.forget('s');
    expect(ends.get('s')).toBeUndefined();
  });
});
