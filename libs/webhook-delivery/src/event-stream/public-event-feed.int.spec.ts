import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountDecider, balanceOf, type OpenAccountState } from '@app/domain/accounts';
import type {
  EventMetadata,
  EventStore,
  EventToAppend,
  RecordedEvent,
} from '@app/platform/event-store/event-store.port';
import { SqliteEventStore } from '@app/platform/event-store/sqlite-event-store';
import { ulid } from '@app/platform/ids/ulid';
import { PUBLIC_EVENTS } from '../mapping/public-events';
import { PublicEventFeed, type DeliveryBody } from './public-event-feed';

const ORG = 'org_feed';
const ENTITY = 'ent_feed';
const ACCOUNTS = 10;
/** Small enough that ten accounts with their open holds do not fit, as 4 MiB did not with thousands pending each. */
const BUDGET = 64 * 1024;

const meta = (): EventMetadata => ({
  event_id: ulid(),
  organization_id: ORG,
  entity_id: ENTITY,
  correlation_id: 'c',
  causation_id: 'c',
  schema_version: 1,
  occurred_at: 1,
  mode: 'sandbox',
});
const event = (type: string, data: Record<string, unknown>): EventToAppend => ({ type, data, metadata: meta() });

/**
 * Ten accounts, funded, then `holds` payouts each left pending (their holds open, as a rail that
 * has not moved them leaves them), appended in rounds so the accounts' events interleave in the log.
 */
async function writeHistory(store: EventStore, holds: number): Promise<void> {
  const ids = Array.from({ length: ACCOUNTS }, (_, i) => `acc_${i}`);
  const funded = 1_000_000;
  await Promise.all(
    ids.map((id) =>
      store.append(
        `account-${id}`,
        [
          event('AccountOpened', {
            account_id: id,
            entity_id: ENTITY,
            mode: 'sandbox',
            type: 'checking',
            currency: 'USD',
            minor_units: 2,
            display_name: 'Feed',
            service_ban: '00000000',
            opened: 1,
          }),
          event('AccountFunded', {
            account_id: id,
            entity_id: ENTITY,
            transaction_id: `txn_${id}`,
            amount: funded,
            currency: 'USD',
            source: 'sandbox',
            balance_after: { available: funded, current: funded },
            funded: 1,
          }),
        ],
        'no_stream',
      ),
    ),
  );
  for (let n = 1; n <= holds; n++) {
    await Promise.all(
      ids.map((id) => {
        const transfer = {
          id: `tr_${id}_${n}`,
          account_id: id,
          payment_type: 'ach',
          currency: 'USD',
          amount: 10,
          fee: 0,
          unique_reference: `reference-of-a-payout-${id}-${n}`,
        };
        const data = {
          account_id: id,
          hold_id: transfer.id,
          amount: 10,
          fee: 0,
          transfer,
          balance_after: { available: funded - 10 * n, current: funded },
          held: n,
        };
        return store.append(`account-${id}`, [event('FundsHeld', data)], n);
      }),
    );
  }
}

describe('PublicEventFeed: what an event stream reads to build the bodies it hands on', () => {
  let dir: string;
  let sqlite: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'feed-'));
    sqlite = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every event of the log after `after` through one feed, as one stream does; counts the stream reads (folds) it made. */
  async function streamFrom(after: number): Promise<{ reads: number; bodies: DeliveryBody[] }> {
    let reads = 0;
    const store = Object.create(sqlite) as EventStore;
    store.readStream = (streamId, options) => {
      reads++;
      return sqlite.readStream(streamId, options);
    };
    const feed = new PublicEventFeed(store, PUBLIC_EVENTS, BUDGET);
    const bodies: DeliveryBody[] = [];
    for (
      let page: RecordedEvent[];
      (page = await sqlite.readAll({ after, limit: 500 })).length;
      after = page[page.length - 1].position
    ) {
      for (const recorded of page)
        bodies.push(...(await feed.bodiesOf(recorded, { organizationId: ORG, mode: 'sandbox' })));
    }
    return { reads, bodies };
  }

  it.each([100, 300])(
    'folds nothing from the start of the log, and each account at most once from the middle, with %i holds open per account',
    async (holds) => {
      await writeHistory(sqlite, holds);
      const whole = await streamFrom(0);
      // Every resource starts at its revision 0 in this stream: its state is evolved event by event, never read.
      expect(whole.reads).toBe(0);
      expect(whole.bodies).toHaveLength(ACCOUNTS * (holds + 3));
      // Resumed half way: each account is folded once (its first event in the stream), whatever the history or the holds open.
      const middle = (await sqlite.headPosition()) - (ACCOUNTS * holds) / 2;
      expect((await streamFrom(middle)).reads).toBe(ACCOUNTS);

      // The bodies are the account as the API shows it: the last one of each account is its fold's balance.
      for (let i = 0; i < ACCOUNTS; i++) {
        const state = (await sqlite.readStream(`account-acc_${i}`)).reduce(
          (s, e) => accountDecider.evolve(s, e as never),
          accountDecider.initialState,
        ) as OpenAccountState;
        const last = whole.bodies.filter((b) => b.event === 'accounts.updated' && b.data.id === `acc_${i}`).pop();
        expect(last?.data).toMatchObject({
          id: `acc_${i}`,
          object: 'account',
          display_name: 'Feed',
          balance: balanceOf(state),
        });
      }
    },
  );
});
