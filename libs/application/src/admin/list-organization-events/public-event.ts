import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { isTransferId, transferStream } from '../../transfers/streams';

/** The event resource of decisions §10. */
export interface PublicEvent {
  readonly id: string;
  readonly object: 'event';
  readonly type: string;
  readonly resource_type: ResourceStream['type'];
  readonly resource_id: string;
  readonly entity_id: string | null;
  readonly position: number;
  readonly revision: number;
  readonly data: Record<string, unknown>;
  readonly metadata: {
    readonly actor: string | null;
    readonly request_id: string | null;
    readonly correlation_id: string;
    readonly causation_id: string;
    readonly schema_version: number;
    /** The stream's hash chain (decisions §10); events older than chains carry the upcast one. */
    readonly hash: string | null;
  };
  readonly created: number;
}

/**
 * Resources an auditor knows, by stream prefix (`<prefix>-<xx>_<id>`): adding a resource to the
 * history, the event list and `GET /{collection}/{id}/history` is one line here. Reservations,
 * indexes and webhook delivery bookkeeping (`api-key-hash-…`, `card-number-…`, `webhook-queue-…`)
 * are how the platform keeps its own promises, not facts about a resource, so they are not listed.
 */
export const RESOURCE_STREAMS = [
  { prefix: 'entity', type: 'entity', collection: 'entities' },
  { prefix: 'account', type: 'account', collection: 'accounts' },
  { prefix: 'counterparty', type: 'counterparty', collection: 'counterparties' },
  { prefix: 'transfer', type: 'transfer', collection: 'transfers' },
  { prefix: 'payment-intent', type: 'payment_intent', collection: 'payment-intents' },
  { prefix: 'intent-action', type: 'intent_action', collection: 'intent-actions' },
  { prefix: 'card', type: 'card', collection: 'cards' },
  { prefix: 'webhook', type: 'webhook', collection: 'entity-webhooks' },
  { prefix: 'api-key', type: 'api_key', collection: null },
] as const;

export type ResourceStream = (typeof RESOURCE_STREAMS)[number];

const RESOURCE_STREAM = new RegExp(`^(${RESOURCE_STREAMS.map((r) => r.prefix).join('|')})-([a-z]{2,5}_[0-9A-Za-z]+)$`);

/** The resource a stream is about, or null for the platform's own streams. */
export function resourceOf(streamId: string): { resource: ResourceStream; id: string } | null {
  const match = RESOURCE_STREAM.exec(streamId);
  return match ? { resource: RESOURCE_STREAMS.find((r) => r.prefix === match[1])!, id: match[2] } : null;
}

/** Never shown, at any depth: key material, signing secrets and token hashes (decisions §10). */
const SECRET_FIELDS = new Set([
  'key_hash',
  'encrypted_private_key',
  'signing_key',
  // A rotation's previous key (webhooks, decisions §15), sealed like the current one.
  'previous_signing_key',
  'token_hash',
  'secret',
  'pan',
  'card_number',
  'cvv',
  'cvc',
  'encrypted_data',
  'sealed_number',
  'content',
  'bytes',
  'document_bytes',
]);

/**
 * The stream of a resource's id. A transfer's stream is named by its account and reference
 * (transfers/streams.ts), so its id is read from its events (below), and an id whose stream holds
 * another transfer of the reference shows nothing.
 */
export function resourceStreamOf(resource: ResourceStream, id: string): string | null {
  if (resource.prefix !== 'transfer') return `${resource.prefix}-${id}`;
  return isTransferId(id) ? transferStream(id) : null;
}

/** Every event of a keyed transfer stream carries the transfer (older streams' ids are in their names). */
const transferIdIn = (data: Record<string, unknown>) => (data.transfer as { id?: unknown } | undefined)?.id;

export function publicEvent(recorded: RecordedEvent): PublicEvent | null {
  const resource = resourceOf(recorded.streamId);
  if (!resource) return null;
  const transferId = resource.resource.prefix === 'transfer' ? transferIdIn(recorded.data) : undefined;
  const m = recorded.metadata;
  const actor = m.actor ?? null;
  return {
    id: `evt_${m.event_id}`,
    object: 'event',
    type: recorded.type,
    resource_type: resource.resource.type,
    resource_id: typeof transferId === 'string' ? transferId : resource.id,
    entity_id: m.entity_id ?? null,
    position: recorded.position,
    revision: recorded.revision,
    data: redact(recorded.data) as Record<string, unknown>,
    // A process manager's event was caused by another event, not by a request.
    metadata: {
      actor,
      request_id: actor?.startsWith('system:') ? null : m.correlation_id,
      correlation_id: m.correlation_id,
      causation_id: m.causation_id,
      schema_version: m.schema_version,
      hash: (m as { hash?: string }).hash ?? null,
    },
    created: m.occurred_at,
  };
}

/**
 * The second guard: none of these should ever be in an event (cards keep sealed numbers, documents
 * their digest), so this only matters if one slipped in. Applied at any depth, on every event shown.
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_FIELDS.has(key))
      .map(([key, v]) => [key, redact(v)]),
  );
}
