import type { ExistingWebhook } from '@app/domain';
import {
  NO_DELIVERY_STATS,
  type AttemptLog,
  type DeliveryStore,
} from '@app/platform/delivery-store/delivery-store.port';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { systemClock } from '@app/platform/clock';
import { afterFailure } from './failing';

const T0 = 1_800_000_000_000;
const webhook = { id: 'whk_1', entity_id: 'ent_1', status: 'active' } as ExistingWebhook;
const log = {
  delivery_id: 'whd_1',
  organization_id: 'org_1',
  mode: 'sandbox',
  webhook_id: 'whk_1',
  event_id: 'evt_1',
  event: 'accounts.created',
  attempt: 2,
  response: { status_code: 503, headers: {}, body: '' },
  error: 'HTTP 503',
  completed_at: T0,
} as unknown as AttemptLog;

/** A store whose only answer is the webhook's counter row; an event store that must not be written. */
const deps = (failing_since: number | null) => ({
  deliveries: {
    stats: async () => new Map([['whk_1', { ...NO_DELIVERY_STATS, failing_since }]]),
  } as unknown as DeliveryStore,
  events: {
    read: () => {
      throw new Error('nothing may be read or appended while the webhook is within the bound');
    },
  } as unknown as EventStore,
  clock: systemClock,
});

describe('after a failed attempt', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  it('logs a warn line naming the webhook, the event, the answer, the attempt and the next retry (issue 32, item 7)', async () => {
    await afterFailure(deps(T0 - 10), webhook, log, T0 + 5000, 60_000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toEqual({
      component: 'webhooks',
      webhook_id: 'whk_1',
      event_id: 'evt_1',
      event: 'accounts.created',
      delivery_id: 'whd_1',
      attempt: 2,
      status_code: 503,
      error: 'HTTP 503',
      next_attempt_at: new Date(T0 + 5000).toISOString(),
    });
    expect(warn.mock.calls[0][1]).toBe('webhook delivery attempt failed; retrying');
  });

  it('says when no retry is left, and disables nothing within WEBHOOK_DISABLE_AFTER_MS or after a success', async () => {
    await afterFailure(deps(T0 - 59_999), webhook, log, null, 60_000);
    await afterFailure(deps(null), webhook, log, null, 60_000);
    expect(warn.mock.calls.map((c) => [c[0].next_attempt_at, c[1]])).toEqual([
      [null, 'webhook delivery attempt failed; no retry left'],
      [null, 'webhook delivery attempt failed; no retry left'],
    ]);
  });
});
