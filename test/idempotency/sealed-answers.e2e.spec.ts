import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { holder, virtualBody } from '../cards/helpers';
import { KEYS, startTestApp, type TestApp } from '../support/test-app';
import { replayed, uniqueKey, withKey } from './helpers';

/**
 * Stored answers can carry what must never rest in clear (a card's number and CVV, a new API key):
 * the idempotency store keeps them sealed under the master key, and a replay still answers them.
 */
describe('Idempotency-Key: stored answers are sealed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('keeps no card number, CVV or API key in clear on disk, and replays them', async () => {
    const h = await holder(t);
    const cardKey = uniqueKey('card');
    const issued = await t.http.post('/virtual-cards').set(withKey(cardKey)).send(virtualBody(h.account)).expect(201);
    const { number, cvv } = issued.body.data as { number: string; cvv: string };
    const keyKey = uniqueKey('key');
    const created = await t.http
      .post('/api-keys')
      .set(withKey(keyKey, KEYS.sandbox))
      .send({ name: 'sealed' })
      .expect(201);
    const secret = created.body.key as string;
    expect(number).toMatch(/^\d{16}$/);

    const again = await t.http.post('/virtual-cards').set(withKey(cardKey)).send(virtualBody(h.account)).expect(201);
    expect(replayed(again)).toBe(true);
    expect(again.body.data).toMatchObject({ number, cvv });
    const keyAgain = await t.http
      .post('/api-keys')
      .set(withKey(keyKey, KEYS.sandbox))
      .send({ name: 'sealed' })
      .expect(201);
    expect(keyAgain.body.key).toBe(secret);

    await t.settle();
    const files = readdirSync(t.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.some((f) => f.name.startsWith('idempotency'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(join(file.parentPath, file.name)).toString('latin1');
      for (const clear of [number, secret])
        expect(`${file.name}: ${bytes.includes(clear)}`).toBe(`${file.name}: false`);
    }
  });
});
