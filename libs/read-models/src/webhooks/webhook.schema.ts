import { WEBHOOK_EVENT_CATALOGUE, type EnabledEvents } from '@app/domain';
import {
  arrayOf,
  constant,
  int,
  ms,
  nullable,
  obj,
  oneOfValues,
  str,
  successEnvelope,
  type Infer,
  type Typed,
} from '../schema-dsl';

/**
 * The webhook resource and its answers: the OpenAPI components `Webhook`, `WebhookCreated`,
 * `WebhookSecretRotated` and the deletion, test, resend and recover answers, and the type the
 * presenter (webhook.presenter.ts) returns.
 */

// Written out (minProperties, an open map per group): typed as the domain's EnabledEvents.
const enabledEvents: Typed<EnabledEvents> = {
  description: '`{"all": true}` or a map of event group to event names',
  oneOf: [
    obj({ all: constant(true) }),
    {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(WEBHOOK_EVENT_CATALOGUE).map(([group, names]) => [group, arrayOf(oneOfValues(names))]),
      ),
      additionalProperties: false,
      minProperties: 1,
    },
  ],
};
const webhookStats = obj({
  deliveries_total: int(),
  deliveries_succeeded: int(),
  deliveries_failed: int(),
  last_delivery_at: nullable(ms()),
  last_response_status: nullable(int('HTTP status, null after a network error')),
});
const webhookFields = {
  id: str('whk_…'),
  object: constant('webhook'),
  entity_id: str(),
  url: str('https URL', { format: 'uri' }),
  expires_in: nullable(int('Seconds')),
  expires_at: nullable(ms()),
  enabled_events: enabledEvents,
  description: nullable(str()),
  tags: arrayOf(str()),
  status: oneOfValues(['active', 'inactive']),
  disabled_reason: nullable(
    oneOfValues(
      ['failing'],
      'Why the platform turned it inactive (decisions §15); null otherwise, and once it is set active again',
    ),
  ),
  stats: webhookStats,
  created: ms(),
  updated: ms(),
};

export const webhookSchema = obj(webhookFields);

export const webhookCreatedSchema = obj(
  {
    ...webhookFields,
    secret: str('The generated secret, when none was sent: returned once'),
    signing_secret: str(
      'whsec_ + base64(SHA-512(secret)): hand it to a Standard Webhooks library to verify deliveries; returned once',
      { pattern: '^whsec_' },
    ),
  },
  { optional: ['secret'] },
);

export const webhookDeletedSchema = successEnvelope(obj({ id: str(), deleted: constant(true) }));

export const webhookTestDispatchedSchema = successEnvelope(obj({ event_id: str('evt_…') }));

export const webhookResendAcceptedSchema = obj({
  status: constant('success'),
  data: obj({ webhook_id: str(), event_id: str('evt_…') }),
});

export const webhookRecoverAcceptedSchema = obj({
  status: constant('success'),
  data: obj({ scheduled: int('Deliveries scheduled again') }),
});

export const webhookSecretRotatedSchema = obj({
  ...webhookFields,
  signing_secret: str(
    'The new key, whsec_ + base64(SHA-512(secret)); returned once. The previous one verifies until it expires',
    { pattern: '^whsec_' },
  ),
});

export type WebhookBody = Infer<typeof webhookSchema>;
