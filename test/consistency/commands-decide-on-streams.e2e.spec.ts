import { createCounterparty } from '../counterparties/helpers';
import { approvedEntity } from '../support/fixtures';
import type { HeldBackReadStore } from '../support/held-back-read-store';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { BANK_USD, payer, post, transferBody } from '../transfers/helpers';
import { REPEATS, startHeldBackApp, whileHeld } from './consistency-helpers';

/**
 * Issue 9: every command decides as it would with a current read model. The read models are held
 * behind the log for the whole test, so a check that read one would see the world before the
 * write the client just made (or wait on it, and fail past the bound).
 */
describe('consistency: a transfer is checked against the writes just before it', () => {
  let t: TestApp & { readModels: HeldBackReadStore };
  let p: Awaited<ReturnType<typeof payer>>;
  beforeAll(async () => {
    t = await startHeldBackApp();
    p = await payer(t, 'USD', REPEATS * 1_000);
    await t.settle();
  });
  afterAll(() => t.close());

  const addDetail = async (counterpartyId: string) => {
    const res = await t.http
      .post(`/counterparties/${counterpartyId}/payment-details`)
      .set(bearer(KEYS.sandbox))
      .send(BANK_USD);
    if (res.status !== 201) throw new Error(`payment detail failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const transfer = (detail: string) => post(t, transferBody(p.account, detail, { amount: 100 }));
  const outcome = (i: number, res: { status: number; body: { code?: string; status?: string } }) => ({
    i,
    status: res.status,
    code: res.body.code ?? res.body.status,
  });

  it('right after its payment detail was created: 201', async () => {
    await whileHeld(t, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const detail = await addDetail(p.counterparty);
        expect(outcome(i, await transfer(detail))).toEqual({ i, status: 201, code: 'pending' });
      }
    });
  });

  it('right after the counterparty was deactivated: 422 counterparty_inactive', async () => {
    await whileHeld(t, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const counterparty = await createCounterparty(t, p.entity);
        const detail = await addDetail(counterparty.id);
        await t.http
          .post(`/counterparties/${counterparty.id}/deactivate`)
          .set(bearer(KEYS.sandbox))
          .send({})
          .expect(200);
        expect(outcome(i, await transfer(detail))).toEqual({ i, status: 422, code: 'counterparty_inactive' });
      }
    });
  });

  it("right after the counterparty moved to another entity, from the old entity's account: 422 entity_mismatch", async () => {
    const other = await approvedEntity(t, KEYS.sandbox, 'Mensah');
    await whileHeld(t, async () => {
      for (let i = 0; i < REPEATS; i++) {
        const counterparty = await createCounterparty(t, p.entity);
        const detail = await addDetail(counterparty.id);
        await t.http
          .patch(`/counterparties/${counterparty.id}`)
          .set(bearer(KEYS.sandbox))
          .send({ entity_id: other })
          .expect(200);
        expect(outcome(i, await transfer(detail))).toEqual({ i, status: 422, code: 'entity_mismatch' });
      }
    });
  });
});
