import { SseParser } from './sse-parser';

describe('SseParser (the event-stream format of the HTML standard)', () => {
  it('dispatches on a blank line, joins data lines, keeps the last id for events without one', () => {
    const p = new SseParser();
    expect(p.push('retry: 2000\nid: 7\nevent: ready\ndata: {"a":1}\n\n')).toEqual([
      { event: 'ready', data: '{"a":1}', lastEventId: '7' },
    ]);
    expect(p.retryMs).toBe(2000);
    expect(p.push('event: x\ndata: one\ndata: two\n\n')).toEqual([{ event: 'x', data: 'one\ntwo', lastEventId: '7' }]);
    expect(p.push('data:no space\n\n')).toEqual([{ event: 'message', data: 'no space', lastEventId: '7' }]);
  });

  it('takes events split anywhere across chunks, with CRLF, CR or LF line ends', () => {
    const text = 'id: 1\r\nevent: a\r\ndata: x\r\n\r\nid: 2\revent: b\rdata: y\r\rid: 3\nevent: c\ndata: z\n\n';
    for (let size = 1; size <= text.length; size++) {
      const p = new SseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...p.push(text.slice(i, i + size)));
      expect(events).toEqual([
        { event: 'a', data: 'x', lastEventId: '1' },
        { event: 'b', data: 'y', lastEventId: '2' },
        { event: 'c', data: 'z', lastEventId: '3' },
      ]);
    }
  });

  it('ignores comments; a block with an id and no data moves the last id without an event (the heartbeat)', () => {
    const p = new SseParser();
    expect(p.push(': heartbeat\nid: 41\n\n: heartbeat\n\n')).toEqual([]);
    expect(p.lastEventId).toBe('41');
    expect(p.push('event: e\ndata: d\n\n')).toEqual([{ event: 'e', data: 'd', lastEventId: '41' }]);
  });

  it('refuses an id with a NUL and ignores unknown fields and a bad retry', () => {
    const p = new SseParser();
    expect(p.push('id: 1\n\nid: a\0b\nretry: soon\nfoo: bar\ndata: d\n\n')).toEqual([
      { event: 'message', data: 'd', lastEventId: '1' },
    ]);
    expect(p.retryMs).toBeNull();
  });
});
