import type { EventStore, RecordedEvent } from '@app/platform/event-store/event-store.port';
import { logger } from '@app/platform/logging/logger';
import { GetLedgerHandler } from './get-ledger.handler';
import { GetLedgerQuery } from './get-ledger.query';

const ORG = 'org_A';
const OTHER = 'org_B';

/** A log in memory, counting the events each readAll hands out. */
class Log {
  readonly events: RecordedEvent[] = [];
  served = 0;

  append(type: string, data: Record<string, unknown>, organization = ORG, mode: 'sandbox' | 'live' = 'sandbox', at = this.events.length + 1): void {
    const position = this.events.length + 1;
    const metadata = { event_id: `e${position}`, organization_id: organization, correlation_id: 'c', causation_id: 'c', schema_version: 1, occurred_at: at, mode };
    this.events.push({ id: `e${position}`, streamId: `account-${String(data.account_id)}`, type, data, metadata, revision: 0, position });
  }

  open(account: string, currency = 'USD', organization = ORG, mode: 'sandbox' | 'live' = 'sandbox'): void {
    this.append('AccountOpened', { account_id: account, entity_id: 'ent_1', mode, type: 'checking', currency, minor_units: 2, display_name: 'x', service_ban: '1', opened: 1 }, organization, mode);
  }

  fund(account: string, amount: number, current: number, currency = 'USD', organization = ORG, mode: 'sandbox' | 'live' = 'sandbox', at?: number): void {
    const data = {
      account_id: account,
      entity_id: 'ent_1',
      transaction_id: `txn_${this.events.length}`,
      amount,
      currency,
      source: 'sandbox',
      balance_after: { available: current, current },
      funded: 1,
    };
    this.append('AccountFunded', data, organization, mode, at);
  }

  store(): EventStore {
    return {
      readAll: async ({ after = 0, limit = 1000 }: { after?: number; limit?: number } = {}) => {
        const batch = this.events.filter((e) => e.position > after).slice(0, limit);
        this.served += batch.length;
        return batch;
      },
      headPosition: async () => this.events.length,
    } as unknown as EventStore;
  }
}

const figures = (debits_posted: number, credits_posted: number, debits_pending = 0, credits_pending = 0) => ({ debits_posted, credits_posted, debits_pending, credits_pending });

describe('GetLedgerHandler', () => {
  let log: Log;
  let handler: GetLedgerHandler;
  beforeEach(() => {
    log = new Log();
    handler = new GetLedgerHandler(log.store());
  });
  afterEach(() => jest.restoreAllMocks());

  const read = (asOf: GetLedgerQuery['asOf'] = null, organization = ORG, mode: 'sandbox' | 'live' = 'sandbox') => handler.execute(new GetLedgerQuery(organization, mode, asOf));

  it('shows one organization and mode’s book at the head, currencies by code and accounts by id', async () => {
    log.open('acc_B', 'USD');
    log.open('acc_A', 'EUR');
    log.fund('acc_B', 500, 500, 'USD');
    log.fund('acc_A', 300, 300, 'EUR');
    log.open('acc_C', 'USD', OTHER);
    log.fund('acc_C', 7, 7, 'USD', OTHER);
    log.open('acc_L', 'USD', ORG, 'live');

    expect(await read()).toEqual({
      position: 7,
      currencies: [
        { currency: 'EUR', ...figures(300, 300) },
        { currency: 'USD', ...figures(500, 500) },
      ],
      accounts: [
        { id: 'acc_A', kind: 'customer', currency: 'EUR', ...figures(0, 300) },
        { id: 'acc_B', kind: 'customer', currency: 'USD', ...figures(0, 500) },
        { id: 'funding:EUR', kind: 'funding', currency: 'EUR', ...figures(300, 0) },
        { id: 'funding:USD', kind: 'funding', currency: 'USD', ...figures(500, 0) },
      ],
    });
    expect((await read(null, OTHER)).accounts.map((a) => a.id)).toEqual(['acc_C', 'funding:USD']);
    // Opening an account moves no money: the live book is still empty.
    expect(await read(null, ORG, 'live')).toEqual({ position: 7, currencies: [], accounts: [] });
  });

  it('reads on from where the last read stopped: a second read folds only what was appended since', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    await read();
    expect(log.served).toBe(2);
    log.fund('acc_A', 50, 150);
    const after = await read();
    expect(log.served).toBe(3);
    expect(after.position).toBe(3);
    expect(after.accounts.find((a) => a.id === 'acc_A')).toMatchObject(figures(0, 150));
  });

  it('answers a copy: a later read does not move figures already answered', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    const first = await read();
    log.fund('acc_A', 50, 150);
    await read();
    expect(first.accounts.find((a) => a.id === 'acc_A')).toMatchObject(figures(0, 100));
  });

  it('as_of position:N folds its own copy up to N when the shared fold is past it, and leaves the shared fold where it was', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    log.fund('acc_A', 50, 150);
    log.fund('acc_A', 25, 175);
    await read();
    expect(await read({ position: 2 })).toMatchObject({ position: 2, accounts: [{ id: 'acc_A', ...figures(0, 100) }, { id: 'funding:USD' }] });
    expect(await read({ position: 0 })).toEqual({ position: 0, currencies: [], accounts: [] });
    log.fund('acc_A', 1, 176);
    const served = log.served;
    const head = await read();
    expect(log.served - served).toBe(1);
    expect(head.accounts[0]).toMatchObject(figures(0, 176));
  });

  it('as_of at or past the shared fold continues it, never beyond the point or the head', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    log.fund('acc_A', 50, 150);
    expect((await read({ position: 2 })).position).toBe(2);
    // The batch read past the point; only what lies beyond the fold is read again.
    expect(log.served).toBe(3);
    expect((await read({ position: 99 })).position).toBe(3);
    expect(log.served).toBe(4);
  });

  it('as_of a time: the log up to the first event after it', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100, 'USD', ORG, 'sandbox', 1_000);
    log.fund('acc_A', 50, 150, 'USD', ORG, 'sandbox', 2_000);
    expect(await read({ time: 1_999 })).toMatchObject({ position: 2, currencies: [{ currency: 'USD', ...figures(100, 100) }] });
    expect(await read({ time: 999 })).toMatchObject({ position: 1, currencies: [] });
    expect(await read({ time: 2_000 })).toMatchObject({ position: 3, currencies: [{ currency: 'USD', ...figures(150, 150) }] });
  });

  it('answers through a ledger fault, logging it once with its transaction id', async () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    log.append('FundsHeld', { account_id: 'acc_A', hold_id: 'trf_ghost', amount: 10, fee: 0, balance_after: { available: 90, current: 100 }, held: 1 });
    log.fund('acc_A', 5, 105);
    const answer = await read();
    expect(answer.position).toBe(4);
    expect(answer.accounts[0]).toMatchObject(figures(0, 105));
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0][0]).toMatchObject({ transaction_id: 'trf_ghost', organization_id: ORG, mode: 'sandbox', position: 3, event_type: 'FundsHeld' });
    await read();
    await read({ position: 3 });
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('serves reads in parallel, each with everything up to the head it read', async () => {
    log.open('acc_A');
    log.fund('acc_A', 100, 100);
    const [a, b] = await Promise.all([read(), read({ position: 1 })]);
    expect(a.position).toBe(2);
    expect(b).toEqual({ position: 1, currencies: [], accounts: [] });
    // The shared fold read the log once, the copy for the earlier point once.
    expect(log.served).toBe(2 + 2);
  });
});
