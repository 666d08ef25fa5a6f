import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { guardedLookup, refuseLiteralDestination } from '@app/application/webhooks';
import type { Clock } from '@app/platform/clock';

/** Response bodies are kept up to this many bytes in the log. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface PostResult {
  readonly response: {
    readonly status_code: number;
    readonly headers: Record<string, string>;
    readonly body: string;
  } | null;
  readonly error: string | null;
  readonly sent_at: number;
  readonly completed_at: number;
}

/**
 * One POST over node:https. TLS trust is Node's default store plus NODE_EXTRA_CA_CERTS; the socket
 * connects only to addresses the destination rule allows; the whole exchange is bounded by
 * `timeoutMs`. Never throws: a failure is the `error` of the result.
 */
export function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean; clock: Clock },
): Promise<PostResult> {
  const sent_at = options.clock.now();
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (response: PostResult['response'], error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ response, error, sent_at, completed_at: options.clock.now() });
    };
    try {
      refuseLiteralDestination(url, options.allowPrivate);
    } catch (err) {
      return finish(null, (err as Error).message);
    }
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowPrivate),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish(
            {
              status_code: res.statusCode ?? 0,
              headers: flatten(res.headers),
              body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'),
            },
            null,
          );
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the log: the status already answered, the rest of the body is not read.
          if (size >= RESPONSE_BODY_LIMIT) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (err) => finish(null, err.message));
      },
    );
    timer = setTimeout(() => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('error', (err) => finish(null, err.message));
    req.end(body);
  });
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}
