// Writes test/fixtures/webhook-deliveries-v1.jsonl: a log with webhook delivery bookkeeping in it, as
// the code before the delivery store wrote it (WebhookDeliveryScheduled, …Enqueued, …AttemptStarted,
// …Attempted, …Cancelled, …Dequeued). Run once, in a clone at that commit (never to make a test pass):
//
//   git clone -q /work/main /tmp/legacy-webhooks && git -C /tmp/legacy-webhooks checkout 5f5e421
//   ln -s "$PWD/node_modules" /tmp/legacy-webhooks/node_modules
//   cp test/audit/ts-register.js /tmp/legacy-webhooks/test/audit/
//   cp test/webhooks/write-legacy-delivery-log.ts /tmp/legacy-webhooks/test/webhooks/
//   (cd /tmp/legacy-webhooks && NODE_EXTRA_CA_CERTS=test/fixtures/tls/ca.crt \
//     node -r ./test/audit/ts-register.js test/webhooks/write-legacy-delivery-log.ts "$PWD/test/fixtures/webhook-deliveries-v1.jsonl")
//
// Each line is one stored event as the SQLite store holds it (the shape of event-log-v1.jsonl). The
// workload: one webhook whose first delivery answers 500 then 200 (a retry), one that always answers
// 500 and is left pending with its next attempt a year away, one deleted between two attempts (a
// cancelled delivery), a test event, an account opened and funded, and a payout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openAccount } from '../accounts/accounts-helpers';
import { createCounterparty } from '../counterparties/helpers';
import { approvedEntity } from '../support/fixtures';
import { bearer, KEYS, startTestApp } from '../support/test-app';
import { BANK_USD, paymentDetail, transferBody } from '../transfers/helpers';
import { Receiver } from './receiver';
import { eventually, fastWorkerEnv, logsOf, webhookTo } from './webhooks-helpers';

async function main(out: string): Promise<void> {
  const keepAlive = setInterval(() => undefined, 60_000);
  fastWorkerEnv({ WEBHOOK_TIMEOUT_MS: '2000' });
  const receiver = await Receiver.start();
  receiver.responder = (path, n) => ({
    status: path === '/down' || path === '/deleted' || (path === '/flaky' && n === 1) ? 500 : 200,
  });
  // Entry n is the delay before attempt n + 1: a second attempt 300 ms after the first, a third a year later.
  const t = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,300,31536000000',
  });
  const entity = await approvedEntity(t, KEYS.sandbox);
  const flaky = await webhookTo(t, receiver, '/flaky', { entity_id: entity, enabled_events: { all: true } });
  const down = await webhookTo(t, receiver, '/down', { entity_id: entity, enabled_events: { accounts: ['created'] } });
  const deleted = await webhookTo(t, receiver, '/deleted', {
    entity_id: entity,
    enabled_events: { accounts: ['created'] },
  });
  await t.http
    .post('/webhook-tests')
    .set(bearer(KEYS.sandbox))
    .send({ webhook_id: flaky.id, entity_id: entity, event_group: 'entities', event_name: 'updated' })
    .expect(201);
  const account = await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
  await eventually(
    () => receiver.on('/deleted'),
    (r) => r.length >= 1,
  );
  await t.http
    .delete(`/entity-webhooks/${deleted.id}`)
    .query({ entity_id: entity })
    .set(bearer(KEYS.sandbox))
    .expect(200);
  await t.http
    .post(`/sandbox/accounts/${account.id}/fund`)
    .set(bearer(KEYS.sandbox))
    .send({ amount: 50_000, currency: 'USD' })
    .expect(201);
  const counterparty = await createCounterparty(t, entity, {}, KEYS.sandbox);
  const detail = await paymentDetail(t, counterparty.id, BANK_USD);
  const transfer = (
    await t.http.post('/transfer').set(bearer(KEYS.sandbox)).send(transferBody(account.id, detail)).expect(201)
  ).body.id as string;
  await t.http
    .post(`/sandbox/transfers/${transfer}/advance`)
    .set(bearer(KEYS.sandbox))
    .send({ to: 'processing' })
    .expect(200);
  await t.http
    .post(`/sandbox/transfers/${transfer}/advance`)
    .set(bearer(KEYS.sandbox))
    .send({ to: 'successful' })
    .expect(200);
  await eventually(
    () => logsOf(t, entity, { webhook_id: down.id }),
    (l) => l.length >= 2,
  );
  const log = () => new Database(join(t.dataDir, 'events.db'), { readonly: true });
  const settled = () => {
    const db = log();
    try {
      const count = (type: string) =>
        (db.prepare('SELECT COUNT(*) AS n FROM events WHERE type = ?').get(type) as { n: number }).n;
      return {
        scheduled: count('WebhookDeliveryScheduled'),
        attempted: count('WebhookDeliveryAttempted'),
        cancelled: count('WebhookDeliveryCancelled'),
        dequeued: count('WebhookDeliveryDequeued'),
      };
    } finally {
      db.close();
    }
  };
  // Every delivery finished except the one to /down, which waits a year: scheduled − 1 dequeued.
  await eventually(
    async () => settled(),
    (s) => s.cancelled === 1 && s.dequeued === s.scheduled - 2,
    30_000,
  );
  await t.app.close();
  const db = log();
  const rows = db.prepare('SELECT * FROM events ORDER BY position').all() as Array<Record<string, string | number>>;
  db.close();
  const events = rows.map((r) => ({
    id: r.event_id,
    streamId: r.stream_id,
    type: r.type,
    data: JSON.parse(String(r.data)),
    metadata: JSON.parse(String(r.metadata)),
    revision: r.revision,
    position: r.position,
  }));
  writeFileSync(out, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const byType: Record<string, number> = {};
  for (const e of events) byType[String(e.type)] = (byType[String(e.type)] ?? 0) + 1;
  await t.close();
  await receiver.close();
  clearInterval(keepAlive);
  console.log(
    JSON.stringify(
      {
        events: events.length,
        byType,
        webhooks: { flaky: flaky.id, down: down.id, deleted: deleted.id },
        entity,
        transfer,
      },
      null,
      1,
    ),
  );
}

main(process.argv[2] ?? join(__dirname, '..', 'fixtures', 'webhook-deliveries-v1.jsonl')).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
