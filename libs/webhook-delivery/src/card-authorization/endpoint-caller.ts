import { CARD_AUTHORIZATION_REQUEST, signingKeysAt } from '@app/domain';
import type { AuthorizationEndpointCaller, AuthorizationRequest, EndpointReply } from '@app/application/cards';
import type { DeliveryStore } from '@app/platform/delivery-store/delivery-store.port';
import { PAUSED } from '@app/platform/delivery-store/delivery-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { logger } from '@app/platform/logging/logger';
import { formatTraceparent, newSpanId, traceIdOf } from '@app/platform/logging/trace-context';
import type { SecretBox } from '@app/platform/security/secret-box';
import { presentCardTransaction } from '@app/read-models/cards/card-transaction.presenter';
import type { Clock } from '@app/platform/clock';
import { postOnce, type PostResult } from '../delivery/https-post';
import { attemptLogOf } from '../delivery/attempt-log';
import { signatureHeaders } from '../delivery/signature';
import type { AuthorizationRelays } from './relays';

export interface CallerSettings {
  /** CARD_AUTHORIZATION_TIMEOUT_MS. */
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  /** Requests one entity may have waiting on its endpoint at once; past it, not asked (the fallback decides). */
  readonly perEntityLimit: number;
}

/**
 * Decisions §16's outbound call, built from the deliveries' parts (signature, SSRF-guarded
 * node:https POST with its TLS trust, timeout and response-size limit), so the endpoint verifies it
 * as any delivery. Asynchronous I/O only: the event loop serves other requests while it waits.
 * Each call is logged as a one-attempt delivery of that webhook, finished at once (never due, so
 * no worker retries it), so `GET /webhook-logs` shows the request and the answer.
 */
export class HttpsAuthorizationCaller implements AuthorizationEndpointCaller {
  private readonly waiting = new Map<string, number>();

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly settings: CallerSettings,
    private readonly relays: AuthorizationRelays | null = null,
  ) {}

  async ask(request: AuthorizationRequest): Promise<EndpointReply> {
    const entityId = request.webhook.entity_id;
    const waiting = this.waiting.get(entityId) ?? 0;
    if (waiting >= this.settings.perEntityLimit) return { status: null, body: null, latency_ms: null, limited: true };
    this.waiting.set(entityId, waiting + 1);
    try {
      return await this.post(request);
    } finally {
      const left = (this.waiting.get(entityId) ?? 1) - 1;
      if (left > 0) this.waiting.set(entityId, left);
      else this.waiting.delete(entityId);
    }
  }

  private async post(request: AuthorizationRequest): Promise<EndpointReply> {
    const { webhook, transaction } = request;
    const eventId = `evt_${ulid()}`;
    const created = this.clock.now();
    const data = presentCardTransaction(transaction);
    const payload = JSON.stringify({
      id: eventId,
      event: CARD_AUTHORIZATION_REQUEST,
      created,
      entity_id: webhook.entity_id,
      data,
    });
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'payments-webhooks/1.0',
      traceparent: formatTraceparent({
        traceId: request.trace_id ?? traceIdOf(eventId),
        spanId: newSpanId(),
        sampled: true,
      }),
      ...signatureHeaders(
        signingKeysAt(webhook, created).map((sealed) => this.box.open(sealed)),
        eventId,
        payload,
        created,
      ),
    };
    const url = new URL(webhook.url);
    // A sandbox `npm run listen` session relays the request to its local endpoint instead (relays.ts), signing it with its own key.
    const result = this.relays?.relays(request.organization_id, request.mode)
      ? await this.relays.ask(request.organization_id, { id: eventId, payload }, this.settings.timeoutMs)
      : await postOnce(url, payload, headers, {
          timeoutMs: this.settings.timeoutMs,
          allowPrivate: this.settings.allowPrivate,
          clock: this.clock,
        });
    await this.log(request, { eventId, payload, headers, url, result }).catch((err) =>
      logger.error({ err, webhook_id: webhook.id }, 'card authorization request not logged'),
    );
    const status = result.response?.status_code ?? null;
    return {
      status,
      body: result.response?.body ?? null,
      latency_ms: result.completed_at - result.sent_at,
      limited: false,
    };
  }

  private async log(
    request: AuthorizationRequest,
    call: { eventId: string; payload: string; headers: Record<string, string>; url: URL; result: PostResult },
  ) {
    const { webhook } = request;
    const { result } = call;
    const id = `dlv_${ulid()}`;
    const common = {
      organization_id: request.organization_id,
      mode: request.mode,
      entity_id: webhook.entity_id,
      webhook_id: webhook.id,
      event_id: call.eventId,
      event: CARD_AUTHORIZATION_REQUEST,
    };
    // Never due (PAUSED) and in no queue: only this call claims it, once, and records its one attempt.
    await this.deliveries.schedule({
      id,
      ...common,
      test: false,
      payload: call.payload,
      queue: null,
      scheduled: result.sent_at,
      due_at: PAUSED,
    });
    await this.deliveries.claim(id, PAUSED, 0);
    const log = attemptLogOf(
      { delivery_id: id, ...common, attempt: 1 },
      { url: webhook.url, target: call.url, headers: call.headers, body: call.payload, result },
    );
    await this.deliveries.record({ log, next_attempt_at: null });
  }
}
