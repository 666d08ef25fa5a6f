import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { bearer, KEYS, type TestApp } from '../support/test-app';
import { OpenEventStreams } from '../../apps/api/src/audit/event-stream/open-event-streams';
import { advance, BANK_USD, payer, paymentDetail, post, transferBody } from '../transfers/helpers';
import { Receiver } from '../webhooks/receiver';
import { eventually, fastWorkerEnv, requireTestCa, startWebhookApp, webhookTo } from '../webhooks/webhooks-helpers';
import { bodiesOf, openStream } from '../events/sse-client';
import { listen, listenEntry, REGISTER, ROOT } from './listen-cli';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * `npm run listen -- --forward-to URL` (issue 22, part 6) as a developer runs it: a child process
 * against the API listening on a port, forwarding to a local receiver that verifies every request
 * with the standardwebhooks package and the secret listen printed.
 */
describe('npm run listen', () => {
  let t: TestApp;
  let api: string;
  let receiver: Receiver;
  let restoreEnv: () => void;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startWebhookApp();
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });

  it("forwards a transfer's events as they happen, signed as real deliveries, in order", async () => {
    const p = await payer(t, 'USD', 100_000);
    const detail = await paymentDetail(t, p.counterparty, BANK_USD);
    // A real webhook on the same entity: listen must send what it receives, body and id.
    await webhookTo(t, receiver, '/real', { entity_id: p.entity, enabled_events: { all: true } });
    const stream = await openStream(api, KEYS.sandbox);

    const run = listen(['--api', api, '--forward-to', receiver.url('/webhooks')]);
    children.push(run.child);
    const [, secret] = await run.line(/Your webhook signing secret is (whsec_[A-Za-z0-9+/=]+) \(\^C to quit\)$/);
    const [, from] = await run.line(
      /^> Ready! Listening to sandbox events of org_\w+ on http:\/\/127\.0\.0\.1:\d+ \(API key …\w{4}\), after position (\d+)$/,
    );
    receiver.expect('/webhooks', secret);

    const transfer = (await post(t, transferBody(p.account, detail, { amount: 25_000 })).expect(201)).body.id as string;
    await advance(t, transfer, { to: 'processing' }).expect(200);
    await advance(t, transfer, { to: 'successful' }).expect(200);

    const forwarded = await eventually(
      () => receiver.on('/webhooks'),
      (r) => r.some((d) => d.payload.event === 'outflows.completed'),
    );
    expect(receiver.rejected).toEqual([]);
    const outflows = forwarded
      .filter((d) => d.payload.event.startsWith('outflows.'))
      .map((d) => [d.payload.event, d.payload.data.id, d.payload.data.status]);
    expect(outflows).toEqual([
      ['outflows.created', transfer, 'pending'],
      ['outflows.updated', transfer, 'processing'],
      ['outflows.completed', transfer, 'successful'],
    ]);
    // In the stream's order (log order), each forwarded once, signed with its event id.
    const ids = forwarded.map((d) => d.payload.id);
    const streamed = bodiesOf(await stream.until((e) => bodiesOf(e).length >= ids.length)).map((b) => b.id);
    expect(ids).toEqual(streamed.slice(0, ids.length));
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of forwarded) {
      expect(d.headers['webhook-id']).toBe(d.payload.id);
      expect(d.headers['user-agent']).toBe('payments-listen/1.0');
      expect(d.headers['content-type']).toBe('application/json');
    }
    // The same body, byte for byte, as the real webhook delivery of the same event.
    const real = await eventually(
      () => receiver.on('/real'),
      (r) => r.some((d) => d.payload.event === 'outflows.completed'),
    );
    for (const d of real.filter((r) => r.payload.event.startsWith('outflows.')))
      expect(forwarded.find((f) => f.payload.id === d.payload.id)?.body).toBe(d.body);
    // Each printed with the endpoint's status.
    for (const d of forwarded) {
      await run.line(new RegExp(`--> ${d.payload.event.replace('.', '\\.')} \\[${d.payload.id}\\]$`));
      await run.line(
        new RegExp(
          `<--  \\[200\\] POST ${receiver.url('/webhooks').replace(/[.?]/g, '\\$&')} \\[${d.payload.id}\\] \\(\\d+ ms\\)$`,
        ),
      );
    }

    // The API ends the stream (a restart, a deploy): listen reconnects and resumes after the last event, missing and repeating nothing.
    await t.app.get(OpenEventStreams).beforeApplicationShutdown();
    await eventually(
      () => run.err.join('\n'),
      (text) => /> Reconnected, resuming after position \d+/.test(text),
    );
    expect(run.err.join('\n')).toMatch(
      /^> The API closed the stream; reconnecting in 1 s \(resuming after position \d+\)$/m,
    );
    await t.http
      .post(`/sandbox/accounts/${p.account}/fund`)
      .set(bearer(KEYS.sandbox))
      .send({ amount: 500, currency: 'USD' })
      .expect(201);
    const after = await eventually(
      () => receiver.on('/webhooks'),
      (r) => r.at(-1)?.payload.event === 'accounts.updated' && r.at(-2)?.payload.event === 'inflows.completed',
    );
    expect(
      after
        .slice(-2)
        .map((d) => [
          d.payload.event,
          d.payload.data.amount ?? (d.payload.data.balance as { current: number }).current,
        ]),
    ).toEqual([
      ['inflows.completed', 500],
      ['accounts.updated', 100_000 - 25_000 - 63 + 500],
    ]);
    expect(after.slice(0, ids.length).map((d) => d.payload.id)).toEqual(ids);
    expect(new Set(after.map((d) => d.payload.id)).size).toBe(after.length);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);

    // Again from where the first started, only two events: the same secret (it follows from the key), the same bodies.
    // The receiver knows the secret before listen starts: the backlog is forwarded as soon as the stream opens.
    receiver.expect('/filtered', secret);
    const again = listen([
      '--api',
      api,
      '--forward-to',
      receiver.url('/filtered'),
      '--after-position',
      from,
      '--events',
      'outflows.created,outflows.completed',
    ]);
    children.push(again.child);
    const [, secretAgain] = await again.line(/Your webhook signing secret is (whsec_[A-Za-z0-9+/=]+) /);
    expect(secretAgain).toBe(secret);
    const replayed = await eventually(
      () => receiver.on('/filtered'),
      (r) => r.length >= 2,
    );
    expect(replayed.map((d) => [d.payload.event, d.payload.data.id])).toEqual([
      ['outflows.created', transfer],
      ['outflows.completed', transfer],
    ]);
    expect(replayed.map((d) => d.body)).toEqual(
      forwarded.filter((f) => ['outflows.created', 'outflows.completed'].includes(f.payload.event)).map((f) => f.body),
    );
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(receiver.rejected).toEqual([]);
  }, 90_000);

  it('prints each failed forward and goes on; says when the API refuses the key; answers --help', async () => {
    const refused = listen(['--api', api], { PAYMENTS_API_KEY: 'sk_test_notAKeyOfAnyOrganization000' });
    children.push(refused.child);
    expect(await refused.exited).toBe(1);
    expect(refused.err.join('\n')).toContain('The API refused the stream: 401');

    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['-r', REGISTER, listenEntry(), ...args], {
        cwd: ROOT,
        env: { ...process.env, ...env, PAYMENTS_API_KEY: env.PAYMENTS_API_KEY ?? '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const help = run(['--help']);
    expect([help.status, help.stdout]).toEqual([0, expect.stringMatching(/^Usage: npm run listen -- /)]);
    // Every refusal of the command line is parseListenArgs' (apps/listen/src/listen-args.unit.spec.ts); one through the process.
    const bad = run(['--bogus']);
    expect([bad.status, bad.stderr]).toEqual([
      2,
      expect.stringMatching(/^listen: Unknown option '--bogus'[^]*Usage: npm run listen -- /),
    ]);

    // An endpoint that is down: the failure is printed, the next event is still forwarded.
    const p = await payer(t, 'USD', 0);
    const closed = await closedPort();
    const down = listen(['--api', api, '--forward-to', `http://127.0.0.1:${closed}/webhooks`]);
    children.push(down.child);
    await down.line(/Your webhook signing secret is/);
    await t.http
      .post(`/sandbox/accounts/${p.account}/fund`)
      .set({ Authorization: `Bearer ${KEYS.sandbox}` })
      .send({ amount: 100, currency: 'USD' })
      .expect(201);
    await down.line(/--> inflows\.completed \[evt_\w+\]$/);
    await down.line(
      new RegExp(`<--  \\[ERR\\] POST http://127\\.0\\.0\\.1:${closed}/webhooks \\[evt_\\w+\\]: ECONNREFUSED$`),
    );
    await down.line(/--> accounts\.updated \[evt_\w+\]$/);
    down.child.kill('SIGINT');
    expect(await down.exited).toBe(0);
  }, 90_000);
});
