/**
 * The delivery bookkeeping the webhook worker appended to the event log before the delivery store
 * existed (up to commit 5f5e421 and the commits after it that kept the shapes): streams
 * `webhook-delivery-<whd_id>` and `webhook-queue-<whk_id>-<stream id>`. Logs are never rewritten,
 * so an older log still holds them; nothing writes them any more and the domain no longer knows
 * them. The one-time import (legacy-import.ts) reads them into the delivery store. Stored shapes,
 * as they are in those logs: never change them.
 */
interface LegacyRef {
  readonly delivery_id: string;
  readonly webhook_id: string;
  readonly entity_id: string;
  readonly event_id: string;
  readonly event: string;
}

interface LegacyAttempt {
  readonly log_id: string;
  readonly attempt: number;
  readonly url: string;
  readonly status: 'succeeded' | 'failed';
  readonly request: {
    readonly method: 'POST';
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  };
  readonly query_params: Readonly<Record<string, string>>;
  readonly response: {
    readonly status_code: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
  } | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly sent_at: number;
  readonly completed_at: number;
}

export type LegacyDeliveryEvent =
  | {
      readonly type: 'WebhookDeliveryScheduled';
      /** `resource` is absent on deliveries scheduled before queues existed, null on tests. */
      readonly data: LegacyRef & {
        readonly test: boolean;
        readonly payload: string;
        readonly resource?: string | null;
        readonly scheduled: number;
        readonly due_at: number;
      };
    }
  | {
      readonly type: 'WebhookDeliveryAttemptStarted';
      readonly data: {
        readonly delivery_id: string;
        readonly attempt: number;
        readonly started: number;
        readonly lease_until: number;
      };
    }
  | {
      readonly type: 'WebhookDeliveryAttempted';
      readonly data: LegacyRef & LegacyAttempt & { readonly next_attempt_at: number | null };
    }
  | {
      readonly type: 'WebhookDeliveryCancelled';
      readonly data: LegacyRef & {
        readonly reason: 'webhook_deleted' | 'webhook_inactive' | 'webhook_unsubscribed';
        readonly cancelled: number;
      };
    }
  | {
      readonly type: 'WebhookDeliveryEnqueued';
      readonly data: {
        readonly webhook_id: string;
        readonly resource: string;
        readonly delivery_id: string;
        readonly position: number;
        readonly seq: number;
        readonly head: boolean;
      };
    }
  | {
      readonly type: 'WebhookDeliveryDequeued';
      readonly data: {
        readonly webhook_id: string;
        readonly resource: string;
        readonly delivery_id: string;
        readonly next_head: string | null;
      };
    };

export const LEGACY_DELIVERY_EVENT_TYPES: ReadonlySet<string> = new Set<LegacyDeliveryEvent['type']>([
  'WebhookDeliveryScheduled',
  'WebhookDeliveryAttemptStarted',
  'WebhookDeliveryAttempted',
  'WebhookDeliveryCancelled',
  'WebhookDeliveryEnqueued',
  'WebhookDeliveryDequeued',
]);
