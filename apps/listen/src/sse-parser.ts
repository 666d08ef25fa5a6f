/** One dispatched Server-Sent Event. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  /** The stream's last event id after this event (carried over from earlier events when it has none). */
  readonly lastEventId: string;
}

/**
 * An incremental parser of `text/event-stream` as the HTML standard defines it
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * lines end in CRLF, LF or CR; `:` starts a comment; fields `event`, `data`, `id`, `retry`; a blank
 * line dispatches. A block with an `id` and no data dispatches nothing but moves the last event id
 * (the API's heartbeats use that to carry the resume position forward).
 */
export class SseParser {
  lastEventId = '';
  /** The server's `retry:` advice in ms, if any. */
  retryMs: number | null = null;
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private pendingId: string | null = null;
  /** A CR ended the last chunk: an LF starting the next one belongs to it. */
  private afterCr = false;

  /** Feeds decoded text; returns the events it completed, in order. */
  push(text: string): SseEvent[] {
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) this.afterCr = true;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.pendingId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return null;
  }

  private dispatch(): SseEvent | null {
    if (this.pendingId !== null) this.lastEventId = this.pendingId;
    this.pendingId = null;
    const [data, event] = [this.data, this.event];
    this.data = [];
    this.event = '';
    if (!data.length) return null;
    return { event: event || 'message', data: data.join('\n'), lastEventId: this.lastEventId };
  }
}
