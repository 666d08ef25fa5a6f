import type { Response } from 'express';
import type { StoredAnswer } from '@app/platform/idempotency/idempotency-store.port';
import { REPLAYED_HEADER } from './idempotency-key';

/**
 * The headers a client needs again with a stored answer: how to read the body, and where a
 * created resource is. Not `x-request-id` (a replay is its own request, with its own id), nor
 * anything about the connection.
 */
export const STORED_HEADERS = ['content-type', 'location'] as const;

type End = (chunk?: unknown, encoding?: unknown, callback?: unknown) => Response;
type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;

/**
 * Watches the answer written to `res`, whoever writes it (the handler's reply, the error
 * envelope filter, a handler using `@Res()`), and holds its end until `settle(answer)` has
 * finished: a client that has the whole answer can retry at once and find it stored. Bytes
 * written before the end go out as written (headers included); only the end waits.
 */
export function holdEnd(res: Response, settle: (answer: StoredAnswer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const write = res.write as unknown as Write;
  const end = res.end as unknown as End;
  (res as unknown as { write: Write }).write = function (chunk, encoding, callback) {
    if (chunk != null) chunks.push(toBuffer(chunk, encoding));
    return write.call(res, chunk, encoding, callback);
  };
  (res as unknown as { end: End }).end = function (chunk, encoding, callback) {
    if (typeof chunk === 'function') [chunk, encoding, callback] = [undefined, undefined, chunk];
    if (typeof encoding === 'function') [encoding, callback] = [undefined, encoding];
    if (chunk != null) chunks.push(toBuffer(chunk, encoding));
    res.write = write as unknown as Response['write'];
    res.end = end as unknown as Response['end'];
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    const finish = () => end.call(res, chunk, encoding, callback);
    settle({ status: res.statusCode, headers, body: Buffer.concat(chunks) }).then(finish, finish);
    return res;
  };
}

/**
 * Sends a stored answer with `Idempotent-Replayed: true`, and makes whatever Nest replies after
 * the interceptor (the route's default status and an empty body) a no-op on this response.
 */
export function sendStored(res: Response, answer: StoredAnswer): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.end(answer.body);
  const sent = () => res;
  Object.assign(res, { status: sent, send: sent, json: sent, end: sent });
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}
