import { isDomainError } from '../shared';
import { ALL_WEBHOOK_EVENTS, parseEnabledEvents, refuseTestEvent, subscribesTo } from './catalogue';

describe('webhook event catalogue', () => {
  it('accepts {all: true} alone, which subscribes to every event but the card authorization request (decisions §16)', () => {
    const all = parseEnabledEvents({ all: true });
    expect(all).toEqual({ all: true });
    for (const event of ALL_WEBHOOK_EVENTS)
      expect(subscribesTo(all as { all: true }, event)).toBe(event !== 'card_authorizations.request');
    expect(subscribesTo({ card_authorizations: ['request'] }, 'card_authorizations.request')).toBe(true);
  });

  it('normalises a group map to catalogue order without duplicates', () => {
    expect(
      parseEnabledEvents({ outflows: ['completed', 'created', 'completed'], payment_intent: ['completed'] }),
    ).toEqual({
      outflows: ['created', 'completed'],
      payment_intent: ['completed'],
    });
  });

  it('subscribes only to the listed names of the listed groups', () => {
    const enabled = parseEnabledEvents({ outflows: ['created'] }) as Record<string, string[]>;
    expect(subscribesTo(enabled, 'outflows.created')).toBe(true);
    expect(subscribesTo(enabled, 'outflows.completed')).toBe(false);
    expect(subscribesTo(enabled, 'accounts.created')).toBe(false);
  });

  it.each([
    [{}, 'enabled_events'],
    [[], 'enabled_events'],
    [{ all: false }, 'enabled_events.all'],
    [{ all: true, outflows: ['created'] }, 'enabled_events.all'],
    [{ outflows: [] }, 'enabled_events.outflows'],
    [{ outflows: 'created' }, 'enabled_events.outflows'],
    [{ funding_sessions: ['created'] }, 'enabled_events.funding_sessions'],
    [{ transfers: ['created'] }, 'enabled_events.transfers'],
  ])('refuses %j naming %s', (value, field) => {
    const result = parseEnabledEvents(value);
    expect(isDomainError(result) && result.kind).toBe('validation');
    expect(isDomainError(result) && result.errors?.[0].field).toBe(field);
  });

  it('allows test events of the spec test groups that exist in the catalogue only', () => {
    expect(refuseTestEvent('outflows', 'completed')).toBeNull();
    expect(refuseTestEvent('entities', 'updated')).toBeNull();
    expect(refuseTestEvent('funding_sessions', 'created')?.errors?.[0].field).toBe('event_name');
    expect(refuseTestEvent('accounts', 'refunded')?.errors?.[0].field).toBe('event_name');
    expect(refuseTestEvent('cards', 'created')?.errors?.[0].field).toBe('event_group');
  });
});
