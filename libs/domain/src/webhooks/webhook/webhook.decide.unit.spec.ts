import { specFor } from '../../shared/testing/given-when-then';
import type { WebhookEvent } from './webhook.events';
import { webhookDecider, type WebhookCommand, type WebhookSettingsInput } from './webhook.decide';
import { signingKeysAt, webhookStatusAt, type ExistingWebhook } from './webhook';

const spec = specFor(webhookDecider);
const T0 = 1_700_000_000_000;
const WHK = 'whk_01J00000000000000000000000';
const ENT = 'ent_01J00000000000000000000000';

const settings = (over: Partial<WebhookSettingsInput> = {}): WebhookSettingsInput => ({
  url: 'https://hooks.example.com/in',
  expires_in: null,
  enabled_events: { outflows: ['created'] },
  signing_key: 'v1.sealed',
  description: null,
  tags: [],
  status: 'active',
  ...over,
});
const create = (over: Partial<WebhookSettingsInput> = {}): WebhookCommand => ({
  type: 'CreateWebhook',
  webhook_id: WHK,
  entity_id: ENT,
  settings: settings(over),
  now: T0,
});
const created = (over: Record<string, unknown> = {}): WebhookEvent => ({
  type: 'WebhookCreated',
  data: {
    ...settings(),
    enabled_events: { outflows: ['created'] },
    expires_at: null,
    webhook_id: WHK,
    entity_id: ENT,
    created: T0,
    ...over,
  } as never,
});
const update = (changes: Partial<WebhookSettingsInput>, now = T0 + 1000): WebhookCommand => ({
  type: 'UpdateWebhook',
  webhook_id: WHK,
  changes,
  now,
});

describe('webhook decider', () => {
  describe('no webhook yet', () => {
    it('creates it with expires_at counted from creation', () => {
      spec([])
        .when(create({ expires_in: 60 }))
        .then([created({ expires_in: 60, expires_at: T0 + 60_000 })]);
    });

    it.each([
      [{ url: 'http://hooks.example.com/in' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/' }, 'url'],
      [{ url: 'https://hooks.example.com/in\r\nX-Injected: 1' }, 'url'],
      [{ url: 'https://hooks.exa\tmple.com/in' }, 'url'],
      [{ expires_in: 0 }, 'expires_in'],
      [{ enabled_events: {} }, 'enabled_events'],
      [{ tags: [' '] }, 'tags'],
    ])('refuses %j', (over, field) => {
      spec([])
        .when(create(over as Partial<WebhookSettingsInput>))
        .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe(field));
    });

    it('answers not found to anything but creation', () => {
      spec([])
        .when(update({ description: 'x' }))
        .thenError('webhook_not_found');
      spec([]).when({ type: 'DeleteWebhook', webhook_id: WHK, now: T0 }).thenError('webhook_not_found');
    });
  });

  describe('an existing webhook', () => {
    it('records only the fields that change, and recounts expiry from the update', () => {
      spec([created({ expires_in: 60, expires_at: T0 + 60_000 })])
        .when(update({ description: null, expires_in: 60, tags: ['a'] }))
        .then([
          {
            type: 'WebhookUpdated',
            data: { webhook_id: WHK, changes: { tags: ['a'], expires_at: T0 + 61_000 }, updated: T0 + 1000 },
          },
        ]);
    });

    it('treats keys present with undefined as omitted', () => {
      spec([created()])
        .when(update({ url: undefined, description: undefined, tags: ['x'] }))
        .then([{ type: 'WebhookUpdated', data: { webhook_id: WHK, changes: { tags: ['x'] }, updated: T0 + 1000 } }]);
    });

    it('records nothing when nothing changes', () => {
      spec([created()])
        .when(update({ status: 'active', enabled_events: { outflows: ['created'] } }))
        .then([]);
    });

    it('reads inactive once expired, and refuses test events then', () => {
      const given = [created({ expires_in: 1, expires_at: T0 + 1000 })];
      spec(given)
        .when(update({}, T0))
        .thenState((s) => expect(webhookStatusAt(s as never, T0 + 999)).toBe('active'));
      spec(given)
        .when(update({}, T0))
        .thenState((s) => expect(webhookStatusAt(s as never, T0 + 1000)).toBe('inactive'));
      spec(given)
        .when({
          type: 'RequestWebhookTest',
          webhook_id: WHK,
          event_id: 'evt_1',
          event_group: 'outflows',
          event_name: 'created',
          data: {},
          now: T0 + 1000,
        })
        .thenError('webhook_inactive');
    });

    it('records a test request for a valid combination only', () => {
      const test = (event_group: string, event_name: string): WebhookCommand => ({
        type: 'RequestWebhookTest',
        webhook_id: WHK,
        event_id: 'evt_1',
        event_group,
        event_name,
        data: { id: 'x' },
        now: T0,
      });
      spec([created()])
        .when(test('accounts', 'created'))
        .then([
          {
            type: 'WebhookTestRequested',
            data: {
              webhook_id: WHK,
              entity_id: ENT,
              event_id: 'evt_1',
              event: 'accounts.created',
              data: { id: 'x' },
              requested: T0,
            },
          },
        ]);
      spec([created()]).when(test('funding_sessions', 'created')).thenError('invalid_event');
    });

    it('is gone once deleted', () => {
      const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { webhook_id: WHK, entity_id: ENT, deleted: T0 } };
      spec([created()]).when({ type: 'DeleteWebhook', webhook_id: WHK, now: T0 }).then([deleted]);
      spec([created(), deleted])
        .when({ type: 'DeleteWebhook', webhook_id: WHK, now: T0 })
        .thenError('webhook_not_found');
      spec([created(), deleted])
        .when(update({ description: 'x' }))
        .thenError('webhook_not_found');
    });
  });
});

describe('webhook operations (decisions §15)', () => {
  const rotate = (expire_previous_in: number, now = T0 + 1000): WebhookCommand => ({
    type: 'RotateWebhookSecret',
    webhook_id: WHK,
    signing_key: 'v1.new',
    expire_previous_in,
    now,
  });

  it('rotates, keeping the current key until the overlap ends; signs with the new one first, the old one while valid', () => {
    spec([created()])
      .when(rotate(60))
      .then([
        {
          type: 'WebhookSecretRotated',
          data: {
            webhook_id: WHK,
            signing_key: 'v1.new',
            previous_signing_key: 'v1.sealed',
            previous_expires_at: T0 + 61_000,
            rotated: T0 + 1000,
          },
        },
      ]);
    spec([created()])
      .when(rotate(60))
      .thenState((s) => {
        expect(signingKeysAt(s as ExistingWebhook, T0 + 60_999)).toEqual(['v1.new', 'v1.sealed']);
        expect(signingKeysAt(s as ExistingWebhook, T0 + 61_000)).toEqual(['v1.new']);
      });
  });

  it('drops the old key at once with expire_previous_in 0, and refuses an overlap past a day', () => {
    spec([created()])
      .when(rotate(0))
      .thenState((s) => expect(signingKeysAt(s as ExistingWebhook, T0 + 1000)).toEqual(['v1.new']));
    spec([created()])
      .when(rotate(86_401))
      .thenError('validation_error', (e) => expect(e.errors?.[0].field).toBe('expire_previous_in'));
  });

  it('a secret set by PATCH replaces both keys', () => {
    const rotated: WebhookEvent = {
      type: 'WebhookSecretRotated',
      data: {
        webhook_id: WHK,
        signing_key: 'v1.new',
        previous_signing_key: 'v1.sealed',
        previous_expires_at: T0 + 61_000,
        rotated: T0,
      },
    };
    spec([created(), rotated])
      .when(update({ signing_key: 'v1.patched' }))
      .thenState((s) => expect(signingKeysAt(s as ExistingWebhook, T0 + 1000)).toEqual(['v1.patched']));
  });

  it('disables an active webhook once, with its reason, cleared when it is set active again', () => {
    const disable: WebhookCommand = { type: 'DisableWebhook', webhook_id: WHK, failing_since: T0, now: T0 + 5000 };
    const disabled: WebhookEvent = {
      type: 'WebhookDisabled',
      data: { webhook_id: WHK, entity_id: ENT, reason: 'failing', failing_since: T0, disabled: T0 + 5000 },
    };
    spec([created()]).when(disable).then([disabled]);
    spec([created(), disabled]).when(disable).then([]);
    spec([created(), disabled])
      .when(update({ status: 'active' }))
      .thenState((s) => expect(s).toMatchObject({ status: 'active', disabled_reason: null }));
    spec([created({ status: 'inactive' })])
      .when(disable)
      .then([]);
  });
});
