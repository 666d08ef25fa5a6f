import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { BootstrapService } from '@app/application/access';
import { loadConfig, WORKER_ROLES, type PlatformConfig, type WorkerRole } from '@app/platform/config/platform-config';
import { PlatformLifecycle, readersOf } from '@app/platform/platform.module';
import { READ_MODELS } from '@app/read-models/read-models';
import { TestClock } from '@app/platform/clock';
import { createApi } from '../../apps/api/src/app.factory';
import type { ApiOptions } from '../../apps/api/src/app.module';
import { WorkerRolesModule } from '../../apps/worker/src/worker.module';
import { HeldBackReadStore } from './held-back-read-store';
import { checkedHttp } from './openapi-check';

/** Bootstrap keys seeded in every test app; each is its own organization. */
export const KEYS = {
  sandbox: 'sk_test_orgAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  live: 'sk_live_orgLiveeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  other: 'sk_test_orgBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
} as const;

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

export interface TestApp {
  app: INestApplication;
  http: ReturnType<typeof request>;
  dataDir: string;
  /** The clock the app runs on: a test moves time with it (advance, set) instead of sleeping. */
  clock: TestClock;
  /** Waits until read models include every event appended so far (lists trail the log). */
  settle(): Promise<void>;
  /** Closes the app and starts a new one on the same DATA_DIR. */
  restart(): Promise<TestApp>;
  close(): Promise<void>;
  /** With `holdableProjections`: the read store under every reader, whose projections a test can hold back. */
  readModels?: HeldBackReadStore;
}

export interface TestAppOptions {
  /** Builds the app on a HeldBackReadStore, so read models lag the log when a test says so. */
  readonly holdableProjections?: boolean;
  /** The worker roles this app runs in its own process (default: every role); `[]`: the API alone, as `start:api`. */
  readonly workerRoles?: readonly WorkerRole[];
  /** The app's clock (default: a new TestClock running with the machine's); restart keeps it. */
  readonly clock?: TestClock;
}

/** The worker's roles in the test app's own process: one app drives and reads everything. */
export function inProcessWorker(roles: readonly WorkerRole[] = WORKER_ROLES): ApiOptions {
  return { inProcessWorker: { readers: readersOf(roles), modules: [WorkerRolesModule.forRoles(roles)] } };
}

/**
 * The whole API on the embedded adapters in a fresh DATA_DIR, with the worker's roles (what
 * `npm start` runs in a second process) in the same process, so tests drive one app.
 * SANDBOX_AUTO_ADVANCE defaults to false so tests move state with the sandbox endpoints, and the
 * rate limit is far above what any test sends.
 */
export function startTestApp(
  env: Record<string, string> = {},
  dataDir?: string,
  options: TestAppOptions = {},
): Promise<TestApp> {
  // A directory this made is removed on close, also after restarts; a given one is the caller's.
  return startOn(env, dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-')), !dataDir, options);
}

async function startOn(
  env: Record<string, string>,
  dir: string,
  ownsDir: boolean,
  options: TestAppOptions,
): Promise<TestApp> {
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dir,
    PAYMENTS_BOOTSTRAP_API_KEYS: Object.values(KEYS).join(','),
    SANDBOX_AUTO_ADVANCE: 'false',
    // Tests fire bursts and long sequences from one key; test/rate-limits sets its own small limits.
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    // Every role shares the test's one event loop on a machine busy with other suites: its delay says
    // more about the machine than the code, so shedding on it is off unless a test asks (test/http/overload).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const clock = options.clock ?? new TestClock();
  const apiOptions = { ...inProcessWorker(options.workerRoles ?? WORKER_ROLES), clock };
  const { app, readModels } = options.holdableProjections
    ? await createHoldableApi(config, apiOptions)
    : { app: await createApi(config, apiOptions), readModels: undefined };
  await app.get(BootstrapService).run();
  const lifecycle = app.get(PlatformLifecycle);
  await lifecycle.settle();
  const testApp: TestApp = {
    app,
    // Every response is checked against the OpenAPI document (openapi-check.ts).
    http: checkedHttp(app),
    dataDir: dir,
    clock,
    readModels,
    settle: () => lifecycle.settle(),
    restart: async () => {
      readModels?.release();
      await app.close();
      return startOn(env, dir, ownsDir, { ...options, clock });
    },
    close: async () => {
      // A held projection would keep the projector's last flush, and so the shutdown, waiting.
      readModels?.release();
      await app.close();
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return testApp;
}

/** The app as createApi builds it, on a read store every reader shares and a test can hold back (ApiOptions.readStore). */
async function createHoldableApi(config: PlatformConfig, apiOptions: ApiOptions) {
  let readModels: HeldBackReadStore | undefined;
  const names = new Set(READ_MODELS.map((p) => p.name));
  const app = await createApi(config, {
    ...apiOptions,
    readStore: (adapter) => (readModels = new HeldBackReadStore(adapter, names)),
  });
  if (!readModels) throw new Error('the platform did not build its read store with ApiOptions.readStore');
  return { app, readModels };
}
