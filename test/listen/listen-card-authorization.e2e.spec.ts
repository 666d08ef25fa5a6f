import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { AuthorizationRelays } from '@app/webhook-delivery/card-authorization/relays';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { AuthorizationEndpoint } from '../cards/authorization-endpoint';
import { authorize, holder, virtualCard } from '../cards/helpers';
import { logsOf, requireTestCa, startWebhookApp } from '../webhooks/webhooks-helpers';
import { listen } from './listen-cli';

/**
 * Decisions §16 on a laptop (issue 30, part 5): `npm run listen -- --forward-to URL` with a sandbox
 * key relays each `card_authorizations.request` to the local endpoint, signed with listen's
 * secret, and the local endpoint's answer decides the authorization, through the CLI as a child
 * process and the API on a port. The entity's webhook URL is another path of the same server that
 * answers otherwise, so a decision that did not come through listen shows.
 */
describe('npm run listen relays card authorization requests (decisions §16)', () => {
  let t: TestApp;
  let api: string;
  let endpoint: AuthorizationEndpoint;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    requireTestCa();
    endpoint = await AuthorizationEndpoint.start();
    // Generous: the answer goes through a child process started from TypeScript source on a loaded machine.
    t = await startWebhookApp({ CARD_AUTHORIZATION_TIMEOUT_MS: '10000' });
    await t.app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t?.close();
    await endpoint?.close();
  });

  it('the local endpoint decides: approve in part, decline with its reason; without listen the webhook’s URL is asked again', async () => {
    const h = await holder(t, 'USD', 10_000);
    const webhook = await endpoint.subscribe(t, h.entity, '/direct');
    expect(webhook.status).toBe(201);
    endpoint.answer('/direct', { status: 200, body: { approved: false, reason: 'asked directly' } });
    const card = (await virtualCard(t, h.account)).id;

    const run = listen(['--api', api, '--forward-to', endpoint.url('/laptop')]);
    children.push(run.child);
    const [, secret] = await run.line(/Your webhook signing secret is (whsec_[A-Za-z0-9+/=]+) /);
    const [, organization] = await run.line(/^> Ready! Listening to sandbox events of (org_\w+) /);
    endpoint.trust('/laptop', secret);
    await run.line(
      /^> Relaying sandbox card authorization requests to https:\/\/127\.0\.0\.1:\d+\/laptop: its answer decides$/,
    );

    endpoint.answer('/laptop', { status: 200, body: { approved: true, amount: 600, reason: 'half the budget left' } });
    const approved = (await authorize(t, card, { amount: 1_000, capture: false }).expect(201)).body.data;
    expect(approved).toMatchObject({
      status: 'pending',
      amount: 600,
      authorization: { source: 'endpoint', endpoint_status: 200, reason: 'half the budget left' },
    });

    endpoint.answer('/laptop', { status: 200, body: { approved: false, reason: 'merchant not on our list' } });
    const declined = (await authorize(t, card, { amount: 700 }).expect(201)).body.data;
    expect(declined).toMatchObject({
      status: 'declined',
      status_reason: 'declined_by_endpoint',
      authorization: { source: 'endpoint', endpoint_status: 200, reason: 'merchant not on our list' },
    });

    // Asked on the laptop, signed with listen's secret (rejected would say otherwise), with the pending transaction; never at the
    // webhook's URL. (listen forwards the organization's other events to the same URL, as always.)
    const asked = () => endpoint.on('/laptop').filter((a) => a.payload.event === 'card_authorizations.request');
    expect(
      asked().map((a) => [a.payload.event, a.payload.data.id, a.payload.data.amount, a.payload.data.status]),
    ).toEqual([
      ['card_authorizations.request', approved.id, 1_000, 'pending'],
      ['card_authorizations.request', declined.id, 700, 'pending'],
    ]);
    expect(endpoint.on('/direct')).toEqual([]);
    expect(endpoint.rejected).toEqual([]);
    await run.line(new RegExp(`--> card_authorizations\\.request \\[${asked()[1].payload.id}\\]$`));
    await run.line(
      /<-- {2}\[200\] POST https:\/\/127\.0\.0\.1:\d+\/laptop \[evt_\w+\] \(\d+ ms\) \{"approved":false,"reason":"merchant not on our list"\}$/,
    );
    // The webhook log holds each request and the answer that decided it, as for the endpoint itself.
    const logs = await logsOf(t, h.entity, { webhook_id: webhook.body.id });
    expect(logs.map((l) => l.response?.body).sort()).toEqual([
      '{"approved":false,"reason":"merchant not on our list"}',
      '{"approved":true,"amount":600,"reason":"half the budget left"}',
    ]);

    // listen gone: the entity's endpoint is asked at its URL again.
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    await waitFor(
      () => t.app.get(AuthorizationRelays).relays(organization, 'sandbox'),
      (relaying) => !relaying,
      'the relay to end with listen',
    );
    const direct = (await authorize(t, card, { amount: 100 }).expect(201)).body.data;
    expect(direct).toMatchObject({
      status: 'declined',
      authorization: { source: 'endpoint', reason: 'asked directly' },
    });
    expect(endpoint.on('/direct')).toHaveLength(1);
  }, 90_000);
});
