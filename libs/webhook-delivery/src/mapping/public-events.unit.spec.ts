import { ALL_WEBHOOK_EVENTS } from '@app/domain';
import { PUBLIC_EVENTS } from './public-events';

describe('public event table', () => {
  it('fires only catalogued event names', () => {
    for (const rule of Object.values(PUBLIC_EVENTS))
      for (const name of rule.events) expect(ALL_WEBHOOK_EVENTS).toContain(name);
  });

  it('names the events docs/decisions/onboarding.md and accounts.md decided', () => {
    const names = (type: string) => PUBLIC_EVENTS[type]?.events;
    expect(names('EntityCreated')).toEqual(['entities.created']);
    for (const type of ['EntityUpdated', 'EntityApproved', 'EntityRejected'])
      expect(names(type)).toEqual(['entities.updated']);
    expect(names('AccountOpened')).toEqual(['accounts.created']);
    expect(names('AccountDetailsIssued')).toEqual(['account_details.created']);
    expect(names('AccountFunded')).toEqual(['inflows.completed', 'accounts.updated']);
  });

  it('names the card events decisions §8 decided', () => {
    const names = (type: string) => PUBLIC_EVENTS[type]?.events;
    expect(names('CardIssued')).toEqual(['cards.created']);
    for (const type of ['CardFrozen', 'CardUnfrozen', 'CardMarkedFraud', 'CardUsedUp', 'CardReassigned'])
      expect(names(type)).toEqual(['cards.updated']);
    expect(names('CardDeleted')).toEqual(['cards.deleted']);
    for (const type of ['CardAuthorizationHeld', 'CardAuthorizationDeclined'])
      expect(names(type)).toEqual(['card_transactions.created']);
    for (const type of ['CardHoldDeclined', 'CardTransactionCaptured', 'CardTransactionReversed'])
      expect(names(type)).toEqual(['card_transactions.updated']);
  });
});
