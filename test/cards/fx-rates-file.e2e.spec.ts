import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, KEYS, startTestApp } from '../support/test-app';
import { account, authorize, holder, virtualCard } from './helpers';

describe('FX_RATES_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fx-'));

  it('replaces the shipped table', async () => {
    const file = join(dir, 'rates.json');
    writeFileSync(
      file,
      JSON.stringify({ date: '2031-01-01', base: 'USD', source: 'test', rates: { USD: 1, EUR: 0.5 } }),
    );
    const t = await startTestApp({ FX_RATES_FILE: file });
    try {
      const h = await holder(t, 'USD', 1_000);
      const card = await virtualCard(t, h.account);
      const eur = await account(t, h.entity, 'EUR', 10_000);
      await t.http.patch(`/cards/${card.id}/account`).set(bearer(KEYS.sandbox)).send({ account_id: eur }).expect(200);
      expect((await authorize(t, card.id, { amount: 1_001 }).expect(201)).body.data.fx).toEqual({
        rate: 0.5,
        account_currency: 'EUR',
        account_amount: 501,
      });
    } finally {
      await t.close();
    }
  });
});
