import type { WebhookEvent } from '@app/domain';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { targetsAt, WebhookTimeline, type RoutedEvent } from './webhook-timeline';

const T0 = 1_700_000_000_000;
const ORG = 'org_1';

/** A webhook stream: each event with the global position it was written at. */
function timeline(
  id: string,
  events: Array<[number, WebhookEvent]>,
  organizationId = ORG,
  mode?: 'live',
): WebhookTimeline {
  const t = new WebhookTimeline();
  t.extend(
    events.map(
      ([position, e], revision) =>
        ({
          ...e,
          id: `e${position}`,
          streamId: `webhook-${id}`,
          revision,
          position,
          metadata: { organization_id: organizationId, mode },
        }) as unknown as RecordedEvent,
    ),
  );
  return t;
}

const settings = {
  url: 'https://hooks.example.com',
  expires_in: null,
  expires_at: null,
  signing_key: 'sealed',
  description: null,
  tags: [],
  status: 'active' as const,
};
const created = (id: string, enabled_events: Record<string, unknown> = { all: true }, extra = {}): WebhookEvent => ({
  type: 'WebhookCreated',
  data: {
    ...settings,
    enabled_events: enabled_events as never,
    ...extra,
    webhook_id: id,
    entity_id: 'ent_1',
    created: T0,
  },
});
const updated = (id: string, changes: Record<string, unknown>): WebhookEvent => ({
  type: 'WebhookUpdated',
  data: { webhook_id: id, changes: changes as never, updated: T0 },
});
const deleted = (id: string): WebhookEvent => ({
  type: 'WebhookDeleted',
  data: { webhook_id: id, entity_id: 'ent_1', deleted: T0 },
});
const tested = (id: string): WebhookEvent => ({
  type: 'WebhookTestRequested',
  data: { webhook_id: id, entity_id: 'ent_1', event_id: 'evt_1', event: 'accounts.created', data: {}, requested: T0 },
});

const at = (position: number, occurredAt = T0, mode: RoutedEvent['mode'] = 'sandbox'): RoutedEvent => ({
  position,
  organizationId: ORG,
  mode,
  occurredAt,
});
const ids = (timelines: WebhookTimeline[], event: RoutedEvent, name = 'accounts.created') =>
  targetsAt(timelines, event, name).map((w) => w.id);

describe('routing at the event position', () => {
  it('sends an event to a webhook created before its position, not to one created after', () => {
    const hooks = [timeline('whk_a', [[10, created('whk_a')]]), timeline('whk_b', [[30, created('whk_b')]])];
    expect(ids(hooks, at(9))).toEqual([]);
    expect(ids(hooks, at(11))).toEqual(['whk_a']);
    expect(ids(hooks, at(31))).toEqual(['whk_a', 'whk_b']);
  });

  it('sends a webhook only the events of its own mode (a webhook written before modes is sandbox)', () => {
    const hooks = [
      timeline('whk_s', [[10, created('whk_s')]]),
      timeline('whk_l', [[11, created('whk_l')]], ORG, 'live'),
    ];
    expect(ids(hooks, at(20))).toEqual(['whk_s']);
    expect(ids(hooks, at(20, T0, 'live'))).toEqual(['whk_l']);
  });

  it('stops at the deletion: events before it are sent, events after it are not', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a')],
        [20, deleted('whk_a')],
      ]),
    ];
    expect(ids(hooks, at(19))).toEqual(['whk_a']);
    expect(ids(hooks, at(21))).toEqual([]);
  });

  it('judges enabled_events as they were at the event', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a', { accounts: ['created'] })],
        [20, updated('whk_a', { enabled_events: { accounts: ['updated'] } })],
      ]),
    ];
    expect(ids(hooks, at(15), 'accounts.created')).toEqual(['whk_a']);
    expect(ids(hooks, at(15), 'accounts.updated')).toEqual([]);
    expect(ids(hooks, at(25), 'accounts.created')).toEqual([]);
    expect(ids(hooks, at(25), 'accounts.updated')).toEqual(['whk_a']);
  });

  it('skips a webhook while it is inactive, and again once reactivated it receives', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a')],
        [20, updated('whk_a', { status: 'inactive' })],
        [30, updated('whk_a', { status: 'active' })],
      ]),
    ];
    expect(ids(hooks, at(25))).toEqual([]);
    expect(ids(hooks, at(35))).toEqual(['whk_a']);
  });

  it('judges expiry at the time of the event, as the webhook read then', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a', { all: true }, { expires_in: 60, expires_at: T0 + 60_000 })],
        [20, updated('whk_a', { expires_in: null, expires_at: null })],
      ]),
    ];
    expect(ids(hooks, at(15, T0 + 59_999))).toEqual(['whk_a']);
    expect(ids(hooks, at(15, T0 + 60_000))).toEqual([]);
    expect(ids(hooks, at(25, T0 + 120_000))).toEqual(['whk_a']);
  });

  it('ignores test requests, and webhooks of another organization', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a')],
        [12, tested('whk_a')],
      ]),
      timeline('whk_b', [[10, created('whk_b')]], 'org_2'),
    ];
    expect(ids(hooks, at(11))).toEqual(['whk_a']);
    expect(ids(hooks, at(13))).toEqual(['whk_a']);
  });

  it('answers for any position in any order once folded (bus partitions interleave)', () => {
    const hooks = [
      timeline('whk_a', [
        [10, created('whk_a')],
        [20, updated('whk_a', { status: 'inactive' })],
        [30, deleted('whk_a')],
      ]),
    ];
    expect([35, 15, 25, 5, 12].map((p) => ids(hooks, at(p)))).toEqual([[], ['whk_a'], [], [], ['whk_a']]);
  });
});
