import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { BootstrapService } from '@app/application/access';
import { loadConfig } from '@app/platform/config/platform-config';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { createApi } from '../../apps/api/src/app.factory';

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
  /** Waits until read models include every event appended so far (lists trail the log). */
  settle(): Promise<void>;
  /** Closes the app and starts a new one on the same DATA_DIR. */
  restart(): Promise<TestApp>;
  close(): Promise<void>;
}

/**
 * The whole API on the embedded adapters in a fresh DATA_DIR, as `npm start` runs it.
 * SANDBOX_AUTO_ADVANCE defaults to false so tests move state with the sandbox endpoints.
 */
export async function startTestApp(env: Record<string, string> = {}, dataDir?: string): Promise<TestApp> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'payments-test-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dir,
    PAYMENTS_BOOTSTRAP_API_KEYS: Object.values(KEYS).join(','),
    SANDBOX_AUTO_ADVANCE: 'false',
    ...env,
  });
  const app = await createApi(config);
  await app.get(BootstrapService).run();
  const lifecycle = app.get(PlatformLifecycle);
  await lifecycle.settle();
  const testApp: TestApp = {
    app,
    http: request(app.getHttpServer()),
    dataDir: dir,
    settle: () => lifecycle.settle(),
    restart: async () => {
      await app.close();
      return startTestApp(env, dir);
    },
    close: async () => {
      await app.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return testApp;
}
