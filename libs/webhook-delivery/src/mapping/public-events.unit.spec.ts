import { ALL_WEBHOOK_EVENTS } from '@app/domain';
import { PUBLIC_EVENTS } from './public-events';

describe('public event table', () => {
  it('fires only catalogued event names', () => {
    for (const rule of Object.values(PUBLIC_EVENTS)) for (const name of rule.events) expect(ALL_WEBHOOK_EVENTS).toContain(name);
  });

  it('names the events docs/decisions/onboarding.md and accounts.md decided', () => {
    const names = (type: string) => PUBLIC_EVENTS[type]?.events;
    expect(names('EntityCreated')).toEqual(['entities.created']);
    for (const type of ['EntityUpdated', 'EntityApproved', 'EntityRejected']) expect(names(type)).toEqual(['entities.updated']);
    expect(names('AccountOpened')).toEqual(['accounts.created']);
    expect(names('AccountDetailsIssued')).toEqual(['account_details.created']);
    expect(names('AccountFunded')).toEqual(['inflows.completed', 'accounts.updated']);
  });
});
