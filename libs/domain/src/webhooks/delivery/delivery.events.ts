/** One attempt as sent and as answered: the immutable webhook log entry (decisions §9). */
export interface DeliveryAttemptRecord {
  readonly log_id: string;
  readonly attempt: number;
  readonly url: string;
  readonly status: 'succeeded' | 'failed';
  /** Headers with signature and authorization values already reading `***`. */
  readonly request: { readonly method: 'POST'; readonly headers: Readonly<Record<string, string>>; readonly body: string };
  readonly query_params: Readonly<Record<string, string>>;
  /** Null when no response came (network error, timeout, refused destination). */
  readonly response: { readonly status_code: number; readonly headers: Readonly<Record<string, string>>; readonly body: string } | null;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly sent_at: number;
  readonly completed_at: number;
}

interface DeliveryRef {
  readonly delivery_id: string;
  readonly webhook_id: string;
  readonly entity_id: string;
  readonly event_id: string;
  readonly event: string;
}

/**
 * Stream `webhook-delivery-<id>`: one public event to one webhook. The scheduled body is the exact
 * bytes every attempt sends, so each retry carries the same signature input.
 */
export type DeliveryEvent =
  | {
      readonly type: 'WebhookDeliveryScheduled';
      readonly data: DeliveryRef & {
        readonly test: boolean;
        readonly payload: string;
        /**
         * The stream the event is about, whose queue (`webhook-queue-<webhook>-<resource>`) orders
         * this delivery behind earlier ones; null for tests, absent on deliveries scheduled before
         * queues existed. Neither waits on anything.
         */
        readonly resource?: string | null;
        readonly scheduled: number;
        readonly due_at: number;
      };
    }
  | {
      /** A worker claims the attempt; until `lease_until` no other worker may make it. */
      readonly type: 'WebhookDeliveryAttemptStarted';
      readonly data: { readonly delivery_id: string; readonly attempt: number; readonly started: number; readonly lease_until: number };
    }
  | { readonly type: 'WebhookDeliveryAttempted'; readonly data: DeliveryRef & DeliveryAttemptRecord & { readonly next_attempt_at: number | null } }
  | {
      readonly type: 'WebhookDeliveryCancelled';
      readonly data: DeliveryRef & { readonly reason: 'webhook_deleted' | 'webhook_inactive' | 'webhook_unsubscribed'; readonly cancelled: number };
    };

export type DeliveryEventType = DeliveryEvent['type'];
export const DELIVERY_EVENT_TYPES: readonly DeliveryEventType[] = [
  'WebhookDeliveryScheduled',
  'WebhookDeliveryAttemptStarted',
  'WebhookDeliveryAttempted',
  'WebhookDeliveryCancelled',
];
