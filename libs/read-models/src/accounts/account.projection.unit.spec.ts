import {
  accountDecider,
  balanceOf,
  newServiceBan,
  type AccountCommand,
  type AccountEvent,
  type AccountState,
} from '@app/domain/accounts';
import { isDomainError } from '@app/domain';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { accountProjection, type AccountDocument } from './account.projection';

const ACC = 'acc_01J00000000000000000000000';
const recorded = (event: AccountEvent, position: number): RecordedEvent =>
  ({
    id: `e${position}`,
    streamId: `account-${ACC}`,
    type: event.type,
    data: event.data,
    metadata: {
      event_id: `e${position}`,
      organization_id: 'org_1',
      entity_id: 'ent_1',
      correlation_id: 'c',
      causation_id: 'c',
      schema_version: 1,
      occurred_at: position,
    },
    revision: position - 1,
    position,
  }) as unknown as RecordedEvent;

describe('account list projection', () => {
  it('tracks the folded balance through credits, holds, releases and settlements', () => {
    const commands: AccountCommand[] = [
      {
        type: 'OpenAccount',
        account_id: ACC,
        entity: { id: 'ent_1', status: 'approved' },
        mode: 'sandbox',
        account_type: 'checking',
        currency: 'USD',
        display_name: 'Ops',
        service_ban: newServiceBan({ digits: (n) => '7'.repeat(n), bytes: (n) => new Uint8Array(n) }),
        now: 1,
      },
      { type: 'FundAccount', account_id: ACC, transaction_id: 'txn_1', amount: 10_000, currency: 'USD', now: 2 },
      { type: 'PlaceHold', account_id: ACC, hold_id: 'trf_1', amount: 3_000, fee: 50, origin_done: false, now: 3 },
      { type: 'PlaceHold', account_id: ACC, hold_id: 'trf_2', amount: 1_000, fee: 0, origin_done: false, now: 4 },
      { type: 'SettleHold', account_id: ACC, hold_id: 'trf_1', now: 5 },
      { type: 'ReleaseHold', account_id: ACC, hold_id: 'trf_2', now: 6 },
    ];
    let state: AccountState = accountDecider.initialState;
    let doc: AccountDocument | null = null;
    let position = 0;
    for (const command of commands) {
      const events = accountDecider.decide(command, state);
      if (isDomainError(events)) throw new Error(events.code);
      for (const event of events) {
        state = accountDecider.evolve(state, event);
        doc = accountProjection.evolve(doc, recorded(event, ++position));
        if (state.status !== 'open') throw new Error('not open');
        expect(doc).toMatchObject({
          id: ACC,
          organization_id: 'org_1',
          balance: balanceOf(state),
          updated: state.updated,
        });
      }
    }
    expect(doc!.balance).toEqual({ available: 6_950, current: 6_950 });
  });

  it('ignores money events for an account it has not seen opened', () => {
    const funded: AccountEvent = {
      type: 'AccountFunded',
      data: {
        account_id: ACC,
        entity_id: 'ent_1',
        transaction_id: 'txn_1',
        amount: 5,
        currency: 'USD',
        source: 'sandbox',
        balance_after: { available: 5, current: 5 },
        funded: 2,
      },
    };
    expect(accountProjection.evolve(null, recorded(funded, 1))).toBeNull();
  });
});
