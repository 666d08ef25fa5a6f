import type { Clock } from '@app/platform/clock';
import type { PostResult } from '../delivery/https-post';

/** What the relay stream carries: the request's id (its `evt_…`) and the exact body the endpoint would have been POSTed. */
export interface RelayedRequest {
  readonly id: string;
  readonly payload: string;
}

/** The local endpoint's answer as `npm run listen` got it: its status and body. */
export interface RelayAnswer {
  readonly status: number;
  readonly body: string;
}

interface Session {
  readonly send: (request: RelayedRequest) => Promise<void>;
  readonly waiting: Map<string, (answer: RelayAnswer | null) => void>;
}

/**
 * Decisions §16 with `npm run listen` (as `stripe listen` relays Issuing's authorization
 * requests): while a listen session of an organization's sandbox holds the relay stream open, the
 * sandbox authorizations of that organization are sent to it instead of the endpoint's URL, and
 * the answer it posts back (its local endpoint's) decides, under the same timeout and rules.
 *
 * Per API process: the relay stream and the authorization must reach the same process, and the
 * answer too (one process in development; see docs/decisions/cards.md for what a multi-replica
 * sandbox would need). The newest session of an organization relays; older ones stay open, idle.
 */
export class AuthorizationRelays {
  private readonly sessions = new Map<string, Session[]>();

  constructor(private readonly clock: Clock) {}

  /** Registers a session; returns its end (its waiting requests get no answer at once: the fallback decides). */
  open(organizationId: string, send: (request: RelayedRequest) => Promise<void>): () => void {
    const session: Session = { send, waiting: new Map() };
    this.sessions.set(organizationId, [...(this.sessions.get(organizationId) ?? []), session]);
    return () => {
      const left = (this.sessions.get(organizationId) ?? []).filter((s) => s !== session);
      if (left.length) this.sessions.set(organizationId, left);
      else this.sessions.delete(organizationId);
      for (const resolve of session.waiting.values()) resolve(null);
      session.waiting.clear();
    };
  }

  /** Whether a sandbox authorization of the organization goes to a listen session. */
  relays(organizationId: string, mode: string): boolean {
    return mode === 'sandbox' && this.sessions.has(organizationId);
  }

  /**
   * Sends the request to the newest session and waits for its answer, at most `timeoutMs`; the
   * same shape as a POST's result, so it is logged and judged as one.
   */
  async ask(organizationId: string, request: RelayedRequest, timeoutMs: number): Promise<PostResult> {
    const sent_at = this.clock.now();
    const session = this.sessions.get(organizationId)?.at(-1);
    if (!session) return { response: null, error: 'no listen session', sent_at, completed_at: this.clock.now() };
    let timer: NodeJS.Timeout | undefined;
    const answered = new Promise<RelayAnswer | null>((resolve) => {
      session.waiting.set(request.id, resolve);
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    try {
      await session.send(request);
      const answer = await answered;
      const completed_at = this.clock.now();
      if (!answer)
        return {
          response: null,
          error: session.waiting.has(request.id)
            ? `timeout after ${timeoutMs} ms (listen relay)`
            : 'the listen session ended',
          sent_at,
          completed_at,
        };
      return {
        response: { status_code: answer.status, headers: {}, body: answer.body },
        error: null,
        sent_at,
        completed_at,
      };
    } finally {
      clearTimeout(timer);
      session.waiting.delete(request.id);
    }
  }

  /** The answer a session posted back; false when no request of the organization waits under that id (late, or unknown). */
  answer(organizationId: string, requestId: string, answer: RelayAnswer): boolean {
    for (const session of this.sessions.get(organizationId) ?? []) {
      const resolve = session.waiting.get(requestId);
      if (resolve) {
        session.waiting.delete(requestId);
        resolve(answer);
        return true;
      }
    }
    return false;
  }
}
