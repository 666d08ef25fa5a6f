import { openAccount } from '../accounts/accounts-helpers';
import type { HeldBackReadStore } from '../support/held-back-read-store';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { advance, balanceOf, BANK_USD, bookTo, fund, payer, post, transferBody } from '../transfers/helpers';
import { REPEATS, startHeldBackApp, whileHeld } from './consistency-helpers';

type Balance = { available: number; current: number };

/**
 * Decisions §2: a sandbox move answers after its effect on balances is applied, so the balance read
 * right after it shows it, with the read models held behind the log the whole time.
 */
describe('consistency: the balance right after each sandbox move shows its effect', () => {
  let t: TestApp & { readModels: HeldBackReadStore };
  let p: Awaited<ReturnType<typeof payer>>;
  let bank: string;
  beforeAll(async () => {
    t = await startHeldBackApp();
    p = await payer(t, 'USD', REPEATS * 40_000);
    const res = await t.http
      .post(`/counterparties/${p.counterparty}/payment-details`)
      .set(bearer(KEYS.sandbox))
      .send(BANK_USD)
      .expect(201);
    bank = res.body.id;
    await t.settle();
  });
  afterAll(() => t.close());

  const AMOUNT = 10_000;
  const WITH_FEE = 10_025; // bank-transfer: 25 basis points
  const balance = () => balanceOf(t, p.account);
  const moved = (b: Balance, available: number, current: number) => ({
    available: b.available + available,
    current: b.current + current,
  });
  const create = async () =>
    (await post(t, transferBody(p.account, bank, { amount: AMOUNT })).expect(201)).body.id as string;
  const move = async (id: string, to: string) => {
    const res = await advance(t, id, { to });
    if (res.status !== 200) throw new Error(`advance to ${to} failed: ${res.status} ${JSON.stringify(res.body)}`);
  };

  /** REPEATS times: `before` brings a transfer to the move, `act` makes it, the balance must show `effect`. */
  async function expectEffectEveryTime(
    name: string,
    before: () => Promise<string>,
    act: (id: string) => Promise<void>,
    effect: (b: Balance) => Balance,
  ) {
    await whileHeld(t, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const id = await before();
        const start = await balance();
        await act(id);
        expect({ i, move: name, balance: await balance() }).toEqual({ i, move: name, balance: effect(start) });
      }
    });
  }

  it('sandbox funding credits at once', async () => {
    await expectEffectEveryTime(
      'fund',
      async () => '',
      () => fund(t, p.account, 500, 'USD'),
      (b) => moved(b, 500, 500),
    );
  });

  it('creating a transfer holds amount + fee at once', async () => {
    await expectEffectEveryTime(
      'create',
      async () => '',
      () => create().then(() => undefined),
      (b) => moved(b, -WITH_FEE, 0),
    );
  });

  it('advance to processing keeps the hold', async () => {
    await expectEffectEveryTime(
      'processing',
      create,
      (id) => move(id, 'processing'),
      (b) => b,
    );
  });

  it('advance to successful debits current and drops the hold', async () => {
    await expectEffectEveryTime(
      'successful',
      async () => {
        const id = await create();
        await move(id, 'processing');
        return id;
      },
      (id) => move(id, 'successful'),
      (b) => moved(b, 0, -WITH_FEE),
    );
  });

  it('advance to failed releases the hold', async () => {
    await expectEffectEveryTime(
      'failed',
      async () => {
        const id = await create();
        await move(id, 'processing');
        return id;
      },
      (id) => move(id, 'failed'),
      (b) => moved(b, WITH_FEE, 0),
    );
  });

  it('advance to reversed credits amount + fee back', async () => {
    await expectEffectEveryTime(
      'reversed',
      async () => {
        const id = await create();
        await move(id, 'processing');
        await move(id, 'successful');
        return id;
      },
      (id) => move(id, 'reversed'),
      (b) => moved(b, WITH_FEE, WITH_FEE),
    );
  });

  it('a book transfer debits the source and credits the destination before it answers', async () => {
    const destination = await openAccount(t, KEYS.sandbox, { entity_id: p.entity, currency: 'USD' });
    const book = (
      await t.http
        .post(`/counterparties/${p.counterparty}/payment-details`)
        .set(bearer(KEYS.sandbox))
        .send(bookTo(destination.id))
        .expect(201)
    ).body.id as string;
    await whileHeld(t, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const [source, target] = [await balance(), await balanceOf(t, destination.id)];
        const res = await post(t, transferBody(p.account, book, { amount: 300, payment_type: 'book-transfer' })).expect(
          201,
        );
        expect({
          i,
          status: res.body.status,
          source: await balance(),
          target: await balanceOf(t, destination.id),
        }).toEqual({
          i,
          status: 'successful',
          source: moved(source, -300, -300),
          target: moved(target, 300, 300),
        });
      }
    });
  });
});
