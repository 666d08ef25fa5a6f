import { domainError, notFound, type Decider, type Decision, type DomainError } from '../../shared';
import { isDomainError } from '../../shared';
import { parseEnabledEvents, refuseTestEvent } from '../catalogue';
import type { WebhookEvent, WebhookSettings } from './webhook.events';
import {
  evolveWebhook,
  initialWebhookState,
  isExistingWebhook,
  webhookStatusAt,
  type ExistingWebhook,
  type WebhookState,
} from './webhook';
import {
  expiresAt,
  refuseDescription,
  refuseExpirePreviousIn,
  refuseExpiresIn,
  refuseTags,
  refuseWebhookUrl,
} from './webhook.rules';

/** Settings as asked for: `enabled_events` still unchecked, `expires_in` not yet turned into a time. */
export type WebhookSettingsInput = Omit<WebhookSettings, 'enabled_events' | 'expires_at'> & {
  readonly enabled_events: unknown;
};

export type WebhookCommand =
  | {
      readonly type: 'CreateWebhook';
      readonly webhook_id: string;
      readonly entity_id: string;
      readonly settings: WebhookSettingsInput;
      readonly now: number;
    }
  | {
      readonly type: 'UpdateWebhook';
      readonly webhook_id: string;
      readonly changes: Partial<WebhookSettingsInput>;
      readonly now: number;
    }
  | { readonly type: 'DeleteWebhook'; readonly webhook_id: string; readonly now: number }
  /** `signing_key` sealed; `expire_previous_in` seconds (0: the old key goes at once). */
  | {
      readonly type: 'RotateWebhookSecret';
      readonly webhook_id: string;
      readonly signing_key: string;
      readonly expire_previous_in: number;
      readonly now: number;
    }
  /** From the delivery worker: every attempt has failed since `failing_since`, for longer than allowed. */
  | {
      readonly type: 'DisableWebhook';
      readonly webhook_id: string;
      readonly failing_since: number;
      readonly now: number;
    }
  | {
      readonly type: 'RequestWebhookTest';
      readonly webhook_id: string;
      readonly event_id: string;
      readonly event_group: string;
      readonly event_name: string;
      readonly data: Record<string, unknown>;
      readonly now: number;
    };

/** Checks every field present and returns them normalised, with `expires_at` counted from `now`. */
export function checkWebhookSettings(
  given: Partial<WebhookSettingsInput>,
  now: number,
): Partial<WebhookSettings> | DomainError {
  // An omitted field may arrive as a present-but-undefined key; it must not overwrite anything.
  const input = Object.fromEntries(
    Object.entries(given).filter(([, v]) => v !== undefined),
  ) as Partial<WebhookSettingsInput>;
  const refused =
    (input.url !== undefined ? refuseWebhookUrl(input.url) : null) ??
    (input.expires_in !== undefined ? refuseExpiresIn(input.expires_in) : null) ??
    (input.description !== undefined ? refuseDescription(input.description) : null) ??
    (input.tags !== undefined ? refuseTags(input.tags) : null);
  if (refused) return refused;
  const { enabled_events, ...rest } = input;
  const checked: Partial<WebhookSettings> = { ...rest };
  if (input.expires_in !== undefined) Object.assign(checked, { expires_at: expiresAt(input.expires_in, now) });
  if (enabled_events === undefined) return checked;
  const events = parseEnabledEvents(enabled_events);
  return isDomainError(events) ? events : { ...checked, enabled_events: events };
}

function create(
  command: Extract<WebhookCommand, { type: 'CreateWebhook' }>,
  state: WebhookState,
): Decision<WebhookEvent> {
  if (state.status !== 'none')
    return domainError('conflict', 'webhook_exists', `Webhook ${command.webhook_id} already exists`);
  const settings = checkWebhookSettings(command.settings, command.now);
  if (isDomainError(settings)) return settings;
  const { webhook_id, entity_id, now } = command;
  return [{ type: 'WebhookCreated', data: { ...(settings as WebhookSettings), webhook_id, entity_id, created: now } }];
}

function update(
  command: Extract<WebhookCommand, { type: 'UpdateWebhook' }>,
  state: ExistingWebhook,
): Decision<WebhookEvent> {
  const checked = checkWebhookSettings(command.changes, command.now);
  if (isDomainError(checked)) return checked;
  // Only real changes are recorded; a secret is always new (its sealed form differs every time).
  const changes = Object.fromEntries(
    Object.entries(checked).filter(
      ([field, value]) =>
        JSON.stringify(value) !== JSON.stringify((state as unknown as Record<string, unknown>)[field]),
    ),
  ) as Partial<WebhookSettings>;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'WebhookUpdated', data: { webhook_id: state.id, changes, updated: command.now } }];
}

function requestTest(
  command: Extract<WebhookCommand, { type: 'RequestWebhookTest' }>,
  state: ExistingWebhook,
): Decision<WebhookEvent> {
  const refused = refuseTestEvent(command.event_group, command.event_name);
  if (refused) return refused;
  if (webhookStatusAt(state, command.now) !== 'active') {
    return domainError(
      'rule',
      'webhook_inactive',
      `Webhook ${state.id} is inactive; activate it to receive test events`,
    );
  }
  const { webhook_id, event_id, data, now } = command;
  return [
    {
      type: 'WebhookTestRequested',
      data: {
        webhook_id,
        entity_id: state.entity_id,
        event_id,
        event: `${command.event_group}.${command.event_name}`,
        data,
        requested: now,
      },
    },
  ];
}

function rotate(
  command: Extract<WebhookCommand, { type: 'RotateWebhookSecret' }>,
  state: ExistingWebhook,
): Decision<WebhookEvent> {
  const refused = refuseExpirePreviousIn(command.expire_previous_in);
  if (refused) return refused;
  // Only the current key is carried over: a key an earlier rotation kept is dropped, so at most two sign.
  const keep = command.expire_previous_in > 0;
  const data = {
    webhook_id: state.id,
    signing_key: command.signing_key,
    previous_signing_key: keep ? state.signing_key : null,
    previous_expires_at: keep ? command.now + command.expire_previous_in * 1000 : null,
    rotated: command.now,
  };
  return [{ type: 'WebhookSecretRotated', data }];
}

/** Idempotent: a webhook already inactive (disabled, deactivated or expired) records nothing, so two workers disable it once. */
function disable(
  command: Extract<WebhookCommand, { type: 'DisableWebhook' }>,
  state: ExistingWebhook,
): Decision<WebhookEvent> {
  if (webhookStatusAt(state, command.now) !== 'active') return [];
  const { failing_since, now } = command;
  return [
    {
      type: 'WebhookDisabled',
      data: { webhook_id: state.id, entity_id: state.entity_id, reason: 'failing', failing_since, disabled: now },
    },
  ];
}

function decide(command: WebhookCommand, state: WebhookState): Decision<WebhookEvent> {
  if (command.type === 'CreateWebhook') return create(command, state);
  if (!isExistingWebhook(state)) return notFound('webhook', command.webhook_id);
  switch (command.type) {
    case 'UpdateWebhook':
      return update(command, state);
    case 'DeleteWebhook':
      return [
        { type: 'WebhookDeleted', data: { webhook_id: state.id, entity_id: state.entity_id, deleted: command.now } },
      ];
    case 'RequestWebhookTest':
      return requestTest(command, state);
    case 'RotateWebhookSecret':
      return rotate(command, state);
    case 'DisableWebhook':
      return disable(command, state);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: initialWebhookState,
  decide,
  evolve: evolveWebhook,
};
