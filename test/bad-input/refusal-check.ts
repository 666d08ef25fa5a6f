import type { Response } from 'supertest';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { bearer, type TestApp } from '../support/test-app';
import type { BadRequest } from './mutations';

/**
 * Sends one bad request and says what is wrong with the answer, or null: never a 5xx, the error
 * envelope on every 4xx, and nothing written on a refusal. Background work (a process manager
 * finishing an earlier accepted request) may append meanwhile, so events after the refusal must
 * all belong to requests that were accepted, never to this one.
 */
export class RefusalCheck {
  private readonly accepted = new Set<string>();
  private sent = 0;
  private lastStatus = 0;
  /** The answer to the last request sent. */
  last!: Response;

  constructor(private readonly t: TestApp) {}

  /** Like problemWith, for input no route may accept: anything but a 4xx is a problem too. */
  async refusalProblem(request: BadRequest, credential: string): Promise<string | null> {
    const problem = await this.problemWith(request, credential);
    return problem ?? (this.lastStatus < 400 ? `accepted with ${this.lastStatus}` : null);
  }

  async problemWith(request: BadRequest, credential: string): Promise<string | null> {
    const store = this.t.app.get<EventStore>(EVENT_STORE);
    const requestId = `bad-input-${++this.sent}`;
    const head = await store.headPosition();
    const res = await this.send(request, credential, requestId);
    this.last = res;
    this.lastStatus = res.status;
    if (res.status >= 500) return `${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
    if (res.status < 400) {
      this.accepted.add(requestId);
      return null;
    }
    if (!isEnvelope(res.body) && !isBrowserPage(request, res))
      return `${res.status} without the error envelope: ${JSON.stringify(res.body ?? res.text).slice(0, 200)}`;
    const written = (await store.readAll({ after: head })).filter((e) => !this.accepted.has(e.metadata.correlation_id));
    return written.length
      ? `${res.status} ${res.body.code}, yet wrote ${written.map((e) => `${e.type} (${e.metadata.correlation_id})`).join(', ')}`
      : null;
  }

  private send(request: BadRequest, credential: string, requestId: string): Promise<Response> {
    const verb = request.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    // An array goes out as one header line per item (Node's setHeader); superagent types it for Cookie only.
    const authorization = request.authorization
      ? (request.authorization as unknown as string)
      : bearer(credential).Authorization;
    const req = this.t.http[verb](request.path).set('Authorization', authorization).set('x-request-id', requestId);
    if (request.multipart) {
      for (const [name, value] of Object.entries(request.multipart.fields)) req.field(name, value);
      return req.attach('file', request.multipart.file, { filename: 'id.png', contentType: 'image/png' });
    }
    return request.json === undefined ? req : req.set('Content-Type', 'application/json').send(request.json);
  }
}

/** The 3-D Secure pages are HTML for the customer's browser (decisions §7), errors included. */
function isBrowserPage(request: BadRequest, res: Response): boolean {
  return request.path.startsWith('/3ds/') && String(res.headers['content-type']).startsWith('text/html');
}

function isEnvelope(body: unknown): boolean {
  const b = body as { status?: unknown; code?: unknown; message?: unknown; errors?: unknown };
  return (
    b?.status === 'error' &&
    typeof b.code === 'string' &&
    /^[a-z][a-z0-9_]*$/.test(b.code) &&
    typeof b.message === 'string' &&
    Array.isArray(b.errors) &&
    b.errors.every(
      (e: { field?: unknown; message?: unknown }) => typeof e?.field === 'string' && typeof e?.message === 'string',
    )
  );
}
