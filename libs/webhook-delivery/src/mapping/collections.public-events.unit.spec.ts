import { ALL_WEBHOOK_EVENTS } from '@app/domain';
import { COLLECTION_PUBLIC_EVENTS } from './collections.public-events';
import { PUBLIC_EVENTS } from './public-events';

describe('payment intent public events (spec Events, decisions §7)', () => {
  it('fires payment_intent.completed, failed, cancelled and refunded from the intent stream, all catalogued', () => {
    const names = (type: string) => PUBLIC_EVENTS[type]?.events;
    expect(names('PaymentIntentCompleted')).toEqual(['payment_intent.completed']);
    expect(names('PaymentIntentFailed')).toEqual(['payment_intent.failed']);
    expect(names('PaymentIntentCancelled')).toEqual(['payment_intent.cancelled']);
    expect(names('PaymentIntentRefunded')).toEqual(['payment_intent.refunded']);
    expect(names('PaymentIntentCreated')).toBeUndefined();
    for (const rule of Object.values(COLLECTION_PUBLIC_EVENTS))
      for (const name of rule.events) expect(ALL_WEBHOOK_EVENTS).toContain(name);
  });

  it('counts a collection credit and a refund as balance changes (accounts.updated)', () => {
    expect(PUBLIC_EVENTS.CollectionCredited?.events).toEqual(['accounts.updated']);
    expect(PUBLIC_EVENTS.CollectionRefunded?.events).toEqual(['accounts.updated']);
  });
});
