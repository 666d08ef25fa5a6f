import { toBusMessage } from '../bus/bus-publisher';
import type { RecordedEvent } from '../event-store/event-store.port';
import { formatTraceparent, parseTraceparent, spanIdOf, traceIdOf, traceparentOfEvent } from './trace-context';

describe('W3C trace context', () => {
  const valid = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('parses a valid traceparent and formats it back', () => {
    const parsed = parseTraceparent(valid);
    expect(parsed).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true });
    expect(formatTraceparent(parsed!)).toBe(valid);
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')?.sampled).toBe(false);
    // A later version may carry more fields; what version 00 defines is read.
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')?.traceId).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it.each([
    ['missing', undefined],
    ['repeated', [valid, valid]],
    ['upper case', valid.toUpperCase()],
    ['all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['all-zero parent id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['version 00 with a fifth field', `${valid}-extra`],
    ['short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
  ])('refuses a %s header', (_case, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it('derives the same ids from the same names, in every process', () => {
    expect(traceIdOf('req_1')).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf('req_1')).toBe(traceIdOf('req_1'));
    expect(traceIdOf('req_1')).not.toBe(traceIdOf('req_2'));
    expect(spanIdOf('evt_1')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('puts the trace of the causing request on every bus message', () => {
    const event = {
      id: 'evt_1',
      streamId: 'account-1',
      type: 'AccountOpened',
      data: {},
      revision: 0,
      position: 1,
      metadata: { correlation_id: 'req_1' },
    } as unknown as RecordedEvent;
    expect(toBusMessage(event).headers).toEqual({
      'event-type': 'AccountOpened',
      'event-id': 'evt_1',
      traceparent: `00-${traceIdOf('req_1')}-${spanIdOf('evt_1')}-01`,
    });
    expect(traceparentOfEvent(event)).toBe(toBusMessage(event).headers!.traceparent);
  });
});
