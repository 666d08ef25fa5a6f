import type { EnabledEvents } from '../catalogue';

/** The settings a webhook carries; `signing_key` is sealed, never the secret or its digest in clear. */
export interface WebhookSettings {
  readonly url: string;
  /** Seconds from creation or from the update that set it; null: never expires. */
  readonly expires_in: number | null;
  readonly expires_at: number | null;
  readonly enabled_events: EnabledEvents;
  /** SHA-512 digest of the secret (the HMAC key), sealed under the platform master key. */
  readonly signing_key: string;
  readonly description: string | null;
  readonly tags: readonly string[];
  readonly status: 'active' | 'inactive';
}

export type WebhookDisabledReason = 'failing';

export type WebhookEvent =
  | {
      readonly type: 'WebhookCreated';
      readonly data: WebhookSettings & {
        readonly webhook_id: string;
        readonly entity_id: string;
        readonly created: number;
      };
    }
  | {
      readonly type: 'WebhookUpdated';
      readonly data: {
        readonly webhook_id: string;
        readonly changes: Partial<WebhookSettings>;
        readonly updated: number;
      };
    }
  | {
      readonly type: 'WebhookDeleted';
      readonly data: { readonly webhook_id: string; readonly entity_id: string; readonly deleted: number };
    }
  | {
      /**
       * A new signing key (decisions §15); the one it replaces stays valid until `previous_expires_at`
       * (both sealed), so deliveries carry both signatures meanwhile. Null: the old one is dropped at once.
       */
      readonly type: 'WebhookSecretRotated';
      readonly data: {
        readonly webhook_id: string;
        readonly signing_key: string;
        readonly previous_signing_key: string | null;
        readonly previous_expires_at: number | null;
        readonly rotated: number;
      };
    }
  | {
      /** Every attempt failed for WEBHOOK_DISABLE_AFTER_MS since `failing_since` (decisions §15): the webhook turns inactive. */
      readonly type: 'WebhookDisabled';
      readonly data: {
        readonly webhook_id: string;
        readonly entity_id: string;
        readonly reason: WebhookDisabledReason;
        readonly failing_since: number;
        readonly disabled: number;
      };
    }
  | {
      /** A test delivery asked for: the worker delivers it to this webhook only, with `test: true`. */
      readonly type: 'WebhookTestRequested';
      readonly data: {
        readonly webhook_id: string;
        readonly entity_id: string;
        readonly event_id: string;
        readonly event: string;
        readonly data: Record<string, unknown>;
        readonly requested: number;
      };
    };

export type WebhookEventType = WebhookEvent['type'];
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'WebhookCreated',
  'WebhookUpdated',
  'WebhookSecretRotated',
  'WebhookDisabled',
  'WebhookDeleted',
  'WebhookTestRequested',
];
