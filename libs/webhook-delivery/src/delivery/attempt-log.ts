import type { AttemptLog } from '@app/platform/delivery-store/delivery-store.port';
import { ulid } from '@app/platform/ids/ulid';
import type { PostResult } from './https-post';
import { queryParams, redact } from './redact';

/** Who an attempt was for: the delivery and the event it carried. */
export type AttemptOf = Pick<
  AttemptLog,
  'delivery_id' | 'organization_id' | 'mode' | 'entity_id' | 'webhook_id' | 'event_id' | 'event' | 'attempt'
>;

/**
 * The log entry of one POST (decisions §9), for deliveries and card authorization requests alike:
 * credential values in headers and query read `***`, and any answer outside 2xx is a failure.
 */
export function attemptLogOf(
  of: AttemptOf,
  call: {
    readonly url: string;
    readonly target: URL;
    readonly headers: Record<string, string>;
    readonly body: string;
    readonly result: PostResult;
  },
): AttemptLog {
  const { result } = call;
  const status_code = result.response?.status_code ?? 0;
  return {
    id: `whl_${ulid()}`,
    ...of,
    url: call.url,
    status: status_code >= 200 && status_code < 300 ? 'succeeded' : 'failed',
    request: { method: 'POST', headers: redact(call.headers), body: call.body },
    query_params: queryParams(call.target),
    response: result.response && { ...result.response, headers: redact(result.response.headers) },
    error: result.error ?? (result.response && status_code >= 300 ? `HTTP ${status_code}` : null),
    duration_ms: result.completed_at - result.sent_at,
    created: result.completed_at,
    sent_at: result.sent_at,
    completed_at: result.completed_at,
  };
}
