import { constant, int, ms, nullable, obj, oneOfValues, str, stringMap, type Infer } from '../schema-dsl';

/** A webhook log entry: the OpenAPI component `WebhookLog`, and the type its presenter returns. */
export const webhookLogSchema = obj({
  id: str('whl_…'),
  object: constant('webhook_log'),
  entity_id: str(),
  webhook_id: str(),
  event_id: str(),
  event: str('e.g. outflows.completed'),
  url: str(),
  attempt: int('1-based'),
  status: oneOfValues(['succeeded', 'failed']),
  request: obj({
    method: constant('POST'),
    headers: stringMap('Signature and authorization values read ***'),
    body: str(),
  }),
  query_params: stringMap(),
  response: nullable(obj({ status_code: int(), headers: stringMap(), body: str() })),
  error: nullable(str()),
  duration_ms: int(),
  created: ms(),
  sent_at: ms(),
  completed_at: ms(),
});

export type WebhookLogBody = Infer<typeof webhookLogSchema>;
