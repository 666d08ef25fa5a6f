import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { webhookReceiver } from '../../examples/webhook-receiver';
import { standardWebhooksSecret } from '@app/application/webhooks';
import { approvedEntity } from '../support/fixtures';
import { KEYS, bearer, type TestApp } from '../support/test-app';
import { Receiver, type Received } from './receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from './webhooks-helpers';

const OLD = 'secret-for-/rotating-0123456789';
const NEW = 'the-new-secret-after-rotation-0123';
const verifies = (whsec: string, r: Received) => {
  try {
    new Webhook(whsec).verify(r.body, r.headers);
    return true;
  } catch {
    return false;
  }
};
/** What the example receiver (examples/webhook-receiver.ts) holding `whsec` answers the delivery: 204 verified, 400 not. */
async function exampleReceiverAnswers(whsec: string, r: Received): Promise<number> {
  const server = createServer(webhookReceiver(whsec, () => undefined));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const headers = {
      'content-type': 'application/json',
      ...Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, r.headers[h]])),
    };
    return (
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        method: 'POST',
        headers,
        body: r.body,
      })
    ).status;
  } finally {
    server.close();
  }
}

/** The delivery as if it carried only its n-th signature. */
const onlySignature = (r: Received, n: number): Received => ({
  ...r,
  headers: { ...r.headers, 'webhook-signature': r.headers['webhook-signature'].split(' ')[n] },
});

/**
 * Decisions §15: a rotation keeps the previous secret valid for `expire_previous_in` seconds, every
 * delivery meanwhile carrying both signatures, the new one first; after that only the new one.
 * The receiver verifies with the `standardwebhooks` package, holding one secret at a time.
 */
describe('webhook signing-secret rotation (decisions §15)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
    receiver = await Receiver.start();
    t = await startWebhookApp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });
  afterEach(() => expect(receiver.rejected).toEqual([]));

  /** A test event through the worker; resolves to its delivery as received. */
  async function deliverTest(hook: string, entity: string): Promise<Received> {
    const res = await t.http
      .post('/webhook-tests')
      .set(bearer(KEYS.sandbox))
      .send({ webhook_id: hook, entity_id: entity, event_group: 'entities', event_name: 'updated' })
      .expect(201);
    const found = await eventually(
      () => receiver.on('/rotating').filter((r) => r.payload.id === res.body.data.event_id),
      (r) => r.length >= 1,
    );
    return found[0];
  }

  it('verifies with the old secret or the new one during the overlap, and only the new one after it', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'Rotating');
    // webhookTo registers the receiver with the old secret (the one named after the path).
    const hook = await webhookTo(t, receiver, '/rotating', {
      entity_id: entity,
      enabled_events: { entities: ['updated'] },
    });
    const [oldKey, newKey] = [standardWebhooksSecret(OLD), standardWebhooksSecret(NEW)];
    const before = await deliverTest(hook.id, entity);
    expect(before.headers['webhook-signature'].split(' ')).toHaveLength(1);

    const rotated = await t.http
      .post(`/entity-webhooks/${hook.id}/rotate-secret`)
      .set(bearer(KEYS.sandbox))
      .send({ entity_id: entity, secret: NEW, expire_previous_in: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      id: hook.id,
      object: 'webhook',
      status: 'active',
      disabled_reason: null,
      signing_secret: newKey,
    });
    expect(rotated.body.secret).toBeUndefined();
    // Returned once: a read never shows it.
    const read = await t.http
      .get(`/entity-webhooks/${hook.id}`)
      .query({ entity_id: entity })
      .set(bearer(KEYS.sandbox))
      .expect(200);
    expect(read.body.signing_secret).toBeUndefined();

    // During the overlap: the receiver still holds only the old secret, and verifies (it rejects otherwise).
    const during = await deliverTest(hook.id, entity);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(oldKey, during)).toBe(true);
    expect(verifies(newKey, during)).toBe(true);
    // The new signature first.
    expect([verifies(newKey, onlySignature(during, 0)), verifies(oldKey, onlySignature(during, 1))]).toEqual([
      true,
      true,
    ]);
    // The example receiver verifies it with either secret.
    expect([await exampleReceiverAnswers(oldKey, during), await exampleReceiverAnswers(newKey, during)]).toEqual([
      204, 204,
    ]);

    // A receiver that switched to the new secret verifies too, during the overlap and after it.
    receiver.expect('/rotating', newKey);
    await deliverTest(hook.id, entity);
    // After expiry (the app's clock moved past it rather than waited for), only the new one.
    t.clock.advance(2_001);
    const after = await deliverTest(hook.id, entity);
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect([verifies(newKey, after), verifies(oldKey, after)]).toEqual([true, false]);
    expect([await exampleReceiverAnswers(newKey, after), await exampleReceiverAnswers(oldKey, after)]).toEqual([
      204, 400,
    ]);
  });

  it('drops the previous secret at once with expire_previous_in 0, generates a secret when none is given, and refuses bad input', async () => {
    const entity = await approvedEntity(t, KEYS.sandbox, 'AtOnce');
    const hook = await webhookTo(t, receiver, '/rotating', {
      entity_id: entity,
      enabled_events: { entities: ['updated'] },
    });
    const rotate = (body: Record<string, unknown>) =>
      t.http
        .post(`/entity-webhooks/${hook.id}/rotate-secret`)
        .set(bearer(KEYS.sandbox))
        .send({ entity_id: entity, ...body });
    const generated = await rotate({ expire_previous_in: 0 });
    expect(generated.status).toBe(200);
    expect(generated.body.signing_secret).toMatch(/^whsec_/);
    receiver.expect('/rotating', generated.body.signing_secret);
    const delivered = await deliverTest(hook.id, entity);
    expect(delivered.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(standardWebhooksSecret('secret-for-/rotating-0123456789'), delivered)).toBe(false);
    for (const body of [
      { expire_previous_in: 86_401 },
      { expire_previous_in: -1 },
      { expire_previous_in: 1.5 },
      { secret: 'short' },
    ]) {
      const res = await rotate(body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
    }
    const other = await approvedEntity(t, KEYS.sandbox, 'NotMine');
    expect(
      (
        await t.http
          .post(`/entity-webhooks/${hook.id}/rotate-secret`)
          .set(bearer(KEYS.sandbox))
          .send({ entity_id: other })
      ).status,
    ).toBe(404);
  });
});
