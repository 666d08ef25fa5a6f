import type { RecordedEvent } from '@app/platform/event-store/event-store.port';

/** The event resource of decisions §10. */
export interface PublicEvent {
  readonly id: string;
  readonly object: 'event';
  readonly type: string;
  readonly resource_type: string;
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
  };
  readonly created: number;
}

/**
 * Streams of resources an auditor knows (`<type>-<prefix>_<id>`). Reservations, indexes and
 * webhook delivery bookkeeping (`api-key-hash-…`, `entity-token-…`, `webhook-delivery-…`, …) are
 * how the platform keeps its own promises, not facts about a resource, so they are not listed.
 */
const RESOURCE_STREAM = /^(entity|account|counterparty|transfer|card|webhook|api-key)-([a-z]{2,5}_[0-9A-Za-z]+)$/;

/** Never shown, at any depth: key material, signing secrets and token hashes (decisions §10). */
const SECRET_FIELDS = new Set(['key_hash', 'encrypted_private_key', 'signing_key', 'token_hash', 'secret', 'pan', 'cvv']);

export function publicEvent(recorded: RecordedEvent): PublicEvent | null {
  const resource = RESOURCE_STREAM.exec(recorded.streamId);
  if (!resource) return null;
  const m = recorded.metadata;
  const actor = m.actor ?? null;
  return {
    id: `evt_${m.event_id}`,
    object: 'event',
    type: recorded.type,
    resource_type: resource[1].replace('-', '_'),
    resource_id: resource[2],
    entity_id: m.entity_id ?? null,
    position: recorded.position,
    revision: recorded.revision,
    data: redact(recorded.data) as Record<string, unknown>,
    // A process manager's event was caused by another event, not by a request.
    metadata: { actor, request_id: actor?.startsWith('system:') ? null : m.correlation_id, correlation_id: m.correlation_id, causation_id: m.causation_id, schema_version: m.schema_version },
    created: m.occurred_at,
  };
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET_FIELDS.has(key)).map(([key, v]) => [key, redact(v)]));
}
