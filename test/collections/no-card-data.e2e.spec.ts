import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { logger } from '@app/platform/logging/logger';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { fund } from '../transfers/helpers';
import { CARDS, card, cardAction, CVVS, encrypt, intentBody, merchant, publicKeyOf, submitPage } from './helpers';

const PANS = [...Object.values(CARDS), '4242 4242 4242 4242'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** What must never appear: any test PAN, and a CVV as a value or under a `cvv` key. */
function findings(where: string, text: string): string[] {
  const found = PANS.filter((pan) => text.includes(pan)).map((pan) => `${where}: PAN ${pan}`);
  // A field named cvv holding a value (an error may name the field, never echo it).
  if (/"cvv"\s*:|\bcvv=\d/i.test(text)) found.push(`${where}: a cvv field`);
  for (const cvv of CVVS) if (text.includes(`"${cvv}"`)) found.push(`${where}: CVV ${cvv}`);
  return found;
}

/**
 * Issue 11: the PAN and CVV live only in memory for the authorization. Every path card data takes
 * (approved, declined, refused, undecryptable, 3-D Secure by page and by API, refunds, lists,
 * webhooks) runs with every log level on, then DATA_DIR (event log, read models, bus, WAL files),
 * the server log, the webhook bodies and every response are searched.
 */
describe('no PAN or CVV outside memory', () => {
  let t: TestApp;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const logged: string[] = [];
  const responses: string[] = [];
  let restoreLog: () => void;

  beforeAll(async () => {
    requireTestCa();
    const stream = (logger as unknown as Record<symbol, { write: (s: string) => boolean }>)[pino.symbols.streamSym];
    const write = stream.write;
    stream.write = (line: string) => (logged.push(line), true);
    const level = logger.level;
    logger.level = 'trace';
    restoreLog = () => ((stream.write = write), (logger.level = level));
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    restoreEnv();
    restoreLog();
  });

  const record = async (req: PromiseLike<{ status: number; text: string; headers: Record<string, string> }>) => {
    const res = await req;
    responses.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
    return res as unknown as { status: number; body: any; text: string };
  };

  it('finds none anywhere after every card path', async () => {
    const { account, entity } = await merchant(t);
    await fund(t, account, 50_000, 'USD');
    await webhookTo(t, receiver, '/all', { entity_id: entity, enabled_events: { all: true } });
    const pem = await publicKeyOf(t);
    const api = (method: 'get' | 'post' | 'patch', path: string, body?: object) =>
      record(t.http[method](path).set(bearer(KEYS.sandbox)).send(body));
    const pay = async (
      number: string,
      cvv: string,
      extra: [Record<string, unknown>, Record<string, unknown>] = [{}, {}],
    ) => {
      const intent = (await api('post', '/payment-intents', intentBody(account))).body.id as string;
      return (
        await api('post', '/intent-actions', {
          payment_intent_id: intent,
          intent_action: cardAction(encrypt(pem, card({ card_number: number, cvv })), ...extra),
        })
      ).body;
    };
    const direct: [Record<string, unknown>, Record<string, unknown>] = [
      { return_url: undefined },
      { auth_model: '3ds_disabled', browser_info: undefined },
    ];

    const viaPage = await pay(CARDS.approved, CVVS[0]);
    await record(t.http.get(`/3ds/${viaPage.id}`));
    await record(submitPage(t, viaPage.id));
    await record(t.http.get(`/3ds/${viaPage.id}`));
    const viaApi = await pay(CARDS.other, CVVS[1]);
    await api('post', `/sandbox/intent-actions/${viaApi.id}/authenticate`, { result: 'success' });
    await pay(CARDS.declined, CVVS[2], direct);
    await pay(CARDS.insufficient, CVVS[0], direct);
    const spaced = await pay('4242 4242 4242 4242', CVVS[1], direct);
    await pay(CARDS.approved, '12', direct);
    await pay('4242424242424241', CVVS[0], direct);
    await api(
      'post',
      '/payment-intents',
      intentBody(account, { intent_action: cardAction(encrypt(pem, card({ cvv: CVVS[2] })), ...direct) }),
    );
    await api('post', '/intent-actions', {
      payment_intent_id: spaced.payment_intent_id,
      intent_action: cardAction(encrypt(pem, card())),
    });
    await api('post', `/payment-intents/${spaced.payment_intent_id}/refunds`, { amount: 500 });
    await api('post', `/intent-verifications/${viaApi.id}`);
    for (const path of [
      '/payment-intents',
      '/intent-actions',
      `/intent-actions/${viaPage.id}`,
      `/payment-intents/${spaced.payment_intent_id}/refunds`,
      `/accounts/${account}/transactions`,
    ]) {
      await t.settle();
      await api('get', path);
    }
    await eventually(
      () => receiver.received,
      (all) => all.some((r) => r.payload.event === 'payment_intent.refunded'),
    );
    await t.settle();

    // The scan can see what it looks for: the records are there, in the files, log and bus.
    const files = filesUnder(t.dataDir).map((f) => [f, readFileSync(f).toString('latin1')] as const);
    expect(files.some(([, text]) => text.includes(spaced.id))).toBe(true);
    expect(files.some(([f, text]) => f.includes('bus') && text.includes('IntentActionCompleted'))).toBe(true);
    expect(logged.length).toBeGreaterThan(0);
    expect(responses.join('\n')).toContain('"last_four_digits":"4242"');

    const found = [
      ...files.flatMap(([f, text]) => findings(f, text)),
      ...findings('server log', logged.join('\n')),
      ...receiver.received.flatMap((r) => findings(`webhook ${r.payload.event}`, r.body)),
      ...responses.flatMap((r, i) => findings(`response ${i}`, r)),
    ];
    expect(found).toEqual([]);
  }, 60_000);
});
