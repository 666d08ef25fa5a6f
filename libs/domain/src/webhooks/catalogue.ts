import { domainError, type DomainError, type FieldError } from '../shared';

/**
 * Every public event a webhook can subscribe to (decisions §9), as group → names. Event names
 * are `<group>.<name>`; anything not listed here is refused.
 */
export const WEBHOOK_EVENT_CATALOGUE = {
  accounts: ['created', 'updated'],
  account_details: ['created'],
  inflows: ['completed', 'failed'],
  outflows: ['created', 'updated', 'completed', 'failed', 'cancelled', 'refunded'],
  entities: ['created', 'updated'],
  funding_sessions: ['completed', 'failed'],
  payment_intent: ['completed', 'failed', 'cancelled', 'refunded'],
  cards: ['created', 'updated', 'deleted'],
  card_transactions: ['created', 'updated'],
  // Decisions §15: an endpoint disabled for failing, told to the entity's other webhooks.
  webhooks: ['disabled'],
  // Decisions §16: the entity's one endpoint asked to decide its card authorizations (never in `all`).
  card_authorizations: ['request'],
} as const satisfies Record<string, readonly string[]>;

export type WebhookEventGroup = keyof typeof WEBHOOK_EVENT_CATALOGUE;

/** The groups the spec lets `POST /webhook-tests` name (cards are not among them). */
export const TEST_EVENT_GROUPS = [
  'accounts',
  'account_details',
  'inflows',
  'outflows',
  'entities',
  'funding_sessions',
  'payment_intent',
] as const;
export const TEST_EVENT_NAMES = [
  'created',
  'updated',
  'deleted',
  'completed',
  'failed',
  'cancelled',
  'refunded',
] as const;

/** `{all: true}`, or the subscribed names per group, each list in catalogue order. */
export type EnabledEvents = { readonly all: true } | { readonly [group: string]: readonly string[] };

const GROUPS = Object.keys(WEBHOOK_EVENT_CATALOGUE) as WebhookEventGroup[];

export const isWebhookEventGroup = (group: string): group is WebhookEventGroup => (GROUPS as string[]).includes(group);

export function isCataloguedEvent(group: string, name: string): boolean {
  return isWebhookEventGroup(group) && (WEBHOOK_EVENT_CATALOGUE[group] as readonly string[]).includes(name);
}

export const ALL_WEBHOOK_EVENTS: readonly string[] = GROUPS.flatMap((g) =>
  WEBHOOK_EVENT_CATALOGUE[g].map((n) => `${g}.${n}`),
);

/** Decisions §16: asked synchronously of one endpoint, so only a webhook that names it subscribes. */
export const CARD_AUTHORIZATION_REQUEST = 'card_authorizations.request';

/** Whether a subscription covers the event `<group>.<name>`. */
export function subscribesTo(enabled: EnabledEvents, event: string): boolean {
  if ('all' in enabled && enabled.all === true) return event !== CARD_AUTHORIZATION_REQUEST;
  const dot = event.indexOf('.');
  const names = (enabled as Record<string, readonly string[]>)[event.slice(0, dot)];
  return Array.isArray(names) && names.includes(event.slice(dot + 1));
}

/**
 * Checks and normalises `enabled_events`: `{all: true}` alone, or a map of catalogued groups to
 * non-empty lists of their names (duplicates dropped). At least one event must be enabled.
 */
export function parseEnabledEvents(value: unknown): EnabledEvents | DomainError {
  const refuse = (errors: FieldError[]) => domainError('validation', 'validation_error', errors[0].message, { errors });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse([
      {
        field: 'enabled_events',
        message: 'enabled_events must be {"all": true} or a map of event group to event names',
      },
    ]);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if ('all' in value) {
    if ((value as { all: unknown }).all !== true || entries.length !== 1) {
      return refuse([{ field: 'enabled_events.all', message: 'enabled_events.all must be true and stand alone' }]);
    }
    return { all: true };
  }
  if (entries.length === 0) return refuse([{ field: 'enabled_events', message: 'at least one event must be enabled' }]);
  const errors: FieldError[] = [];
  const normalised: Record<string, string[]> = {};
  for (const [group, names] of entries) {
    const field = `enabled_events.${group}`;
    if (!isWebhookEventGroup(group)) {
      errors.push({ field, message: `${group} is not an event group; groups: ${GROUPS.join(', ')}` });
    } else if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string')) {
      errors.push({ field, message: `${field} must be a non-empty list of event names` });
    } else {
      const unknown = names.filter((n: string) => !isCataloguedEvent(group, n));
      if (unknown.length)
        errors.push({
          field,
          message: `${unknown.map((n: string) => `${group}.${n}`).join(', ')} is not an event; ${group} has ${WEBHOOK_EVENT_CATALOGUE[group].join(', ')}`,
        });
      else normalised[group] = WEBHOOK_EVENT_CATALOGUE[group].filter((n) => names.includes(n));
    }
  }
  return errors.length ? refuse(errors) : normalised;
}

/** A test event must name a group the spec offers for tests and a name that group really has. */
export function refuseTestEvent(group: string, name: string): DomainError | null {
  if (!(TEST_EVENT_GROUPS as readonly string[]).includes(group)) {
    return domainError('validation', 'validation_error', `event_group must be one of ${TEST_EVENT_GROUPS.join(', ')}`, {
      errors: [{ field: 'event_group', message: `event_group must be one of ${TEST_EVENT_GROUPS.join(', ')}` }],
    });
  }
  if (!isCataloguedEvent(group, name)) {
    const names = WEBHOOK_EVENT_CATALOGUE[group as WebhookEventGroup].join(', ');
    return domainError('validation', 'invalid_event', `${group}.${name} does not exist; ${group} has ${names}`, {
      errors: [{ field: 'event_name', message: `${group}.${name} does not exist; ${group} has ${names}` }],
    });
  }
  return null;
}
