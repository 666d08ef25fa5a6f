import { RESOURCE_STREAMS, type PublicEvent } from '@app/application/admin/list-organization-events/public-event';
import {
  anyObject,
  constant,
  int,
  ms,
  nullable,
  obj,
  oneOfValues,
  ref,
  str,
  arrayOf,
  type Infer,
} from '@app/read-models/schema-dsl';

/**
 * The event resource (decisions §10): the OpenAPI components `Event` and `EventHistory`.
 * Its presenter, publicEvent, sits in the application layer (the history and proof handlers
 * share it), which does not import read models, and its resource types are application values,
 * which read models import as types only; so the schema and the check that holds PublicEvent to
 * it live here, with the document.
 */
export const eventSchema = obj({
  id: str('evt_…'),
  object: constant('event'),
  type: str('The domain event, e.g. TransferCreated'),
  resource_type: oneOfValues(RESOURCE_STREAMS.map((r) => r.type)),
  resource_id: str(),
  entity_id: nullable(str()),
  position: int('Increasing across the whole log'),
  revision: int('0-based within its resource'),
  data: anyObject('The event data; PAN, CVV, secrets and document bytes never appear'),
  metadata: obj({
    actor: nullable(str('api_key:<id>, entity_token:<key id>, system:<process manager>, or operator')),
    request_id: nullable(str()),
    correlation_id: str(),
    causation_id: str(),
    schema_version: int(),
    hash: nullable(str('SHA-256 hash chain of the stream, lowercase hex')),
  }),
  created: ms(),
});

export const eventHistorySchema = obj(
  { data: arrayOf(ref('Event')), meta: ref('StyleAMeta') },
  { description: 'A page of the resource’s events, oldest first' },
);

export type EventBody = Infer<typeof eventSchema>;

/** Compiles only while what publicEvent answers (PublicEvent) is what the schema describes. */
type Holds<T extends EventBody> = T;
export type PublicEventHoldsToItsSchema = Holds<PublicEvent>;
