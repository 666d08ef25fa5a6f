import { approvedEntity } from '../support/fixtures';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@app/platform/config/platform-config';
import { createWorker } from '../../apps/worker/src/worker.factory';
import { openAccount } from '../accounts/accounts-helpers';
import { KEYS, startTestApp, type TestApp } from '../support/test-app';
import { Receiver } from './receiver';
import { eventually, fastWorkerEnv, logsOf, requireTestCa, webhookTo } from './webhooks-helpers';

/**
 * The webhooks role as its own worker: the test app runs every other role, and the webhooks
 * worker is its own Nest application context (as `WORKER_ROLES=webhooks npm run start:worker`
 * builds it) on the same stores.
 */
describe('webhook worker as its own deployment', () => {
  let t: TestApp;
  let receiver: Receiver;
  let worker: INestApplicationContext | null = null;
  let restoreEnv: () => void;
  const env = { WEBHOOK_RETRY_SCHEDULE_MS: '0,2500,400' };
  const startWorker = async () => {
    worker = await createWorker(
      loadConfig({ ...process.env, DATA_DIR: t.dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env }),
      ['webhooks'],
    );
  };

  beforeAll(async () => {
    requireTestCa();
    restoreEnv = fastWorkerEnv();
    receiver = await Receiver.start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...env }, undefined, {
      workerRoles: ['projector', 'publisher', 'process-managers'],
    });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await receiver?.close();
    restoreEnv?.();
  });

  it('loses no pending retry across a worker restart, and never repeats an acknowledged attempt', async () => {
    await startWorker();
    const entity = await approvedEntity(t, KEYS.sandbox);
    receiver.responder = (_path, n) => (n === 1 ? { status: 503 } : { status: 204 });
    const hook = await webhookTo(t, receiver, '/restart', {
      entity_id: entity,
      enabled_events: { accounts: ['created'] },
    });
    await t.settle();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'USD' });
    await eventually(
      () => logsOf(t, entity, { webhook_id: hook.id }),
      (logs) => logs.length === 1,
    );

    // The retry is 2.5 s away: stop the worker now, while it is only scheduled.
    await worker!.close();
    worker = null;
    expect(receiver.on('/restart')).toHaveLength(1);
    await startWorker();

    const logs = await eventually(
      () => logsOf(t, entity, { webhook_id: hook.id }),
      (l) => l.length >= 2,
    );
    expect(logs.map((l) => [l.attempt, l.status, l.response?.status_code])).toEqual([
      [2, 'succeeded', 204],
      [1, 'failed', 503],
    ]);
    const got = receiver.on('/restart');
    expect(got).toHaveLength(2);
    expect(got[1].payload.id).toBe(got[0].payload.id);
    expect(receiver.rejected).toEqual([]);

    // A restart after the 2xx changes nothing: the delivery is finished in the delivery store.
    await worker!.close();
    await startWorker();
    await openAccount(t, KEYS.sandbox, { entity_id: entity, currency: 'EUR' });
    await eventually(
      () => receiver.on('/restart'),
      (r) => r.length >= 3,
    );
    expect(receiver.on('/restart').map((r) => r.payload.data.currency)).toEqual(['USD', 'USD', 'EUR']);
  });
});
