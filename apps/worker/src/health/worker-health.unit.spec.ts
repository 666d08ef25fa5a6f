import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EVENT_STORE } from '@app/platform/event-store/event-store.port';
import { PlatformLifecycle } from '@app/platform/platform.module';
import { WorkerHealth, WorkerHealthModule } from './worker-health';

/** The worker's probes as terminus answers them: a log that answers or not, a reader that fails. */
describe('WorkerHealth', () => {
  let app: INestApplicationContext;
  afterEach(() => app?.close());

  async function probes(headPosition: () => Promise<number>) {
    const listeners: Array<(component: string) => void> = [];
    const lifecycle = { onFailure: (listener: (component: string) => void) => void listeners.push(listener) };
    // What the platform module provides globally in a worker.
    @Global()
    @Module({
      providers: [
        { provide: EVENT_STORE, useValue: { headPosition } },
        { provide: PlatformLifecycle, useValue: lifecycle },
      ],
      exports: [EVENT_STORE, PlatformLifecycle],
    })
    class FakePlatform {}
    app = await NestFactory.createApplicationContext(
      { module: WorkerHealthModule, imports: [FakePlatform] },
      { logger: false },
    );
    return {
      health: app.get(WorkerHealth),
      fail: (component: string) => listeners.forEach((listener) => listener(component)),
    };
  }

  it('is live and ready while its readers run and the log answers', async () => {
    const { health } = await probes(async () => 42);
    expect(await health.live()).toEqual({ code: 200, body: { status: 'ok', info: {}, error: {}, details: {} } });
    const readers = { status: 'up', roles: ['projector'] };
    const event_store = { status: 'up', head: 42 };
    expect(await health.ready(['projector'])).toEqual({
      code: 200,
      body: { status: 'ok', info: { readers, event_store }, error: {}, details: { readers, event_store } },
    });
  });

  it('is not ready, naming the check, when the log does not answer', async () => {
    const { health } = await probes(() => Promise.reject(new Error('connect ECONNREFUSED eventstore:2113')));
    const answer = await health.ready(['projector']);
    expect(answer).toMatchObject({
      code: 503,
      body: {
        status: 'error',
        error: { event_store: { status: 'down', message: 'unavailable' } },
        info: { readers: { status: 'up' } },
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain('eventstore:2113');
  });

  it('is neither live nor ready once a reader has failed', async () => {
    const { health, fail } = await probes(async () => 7);
    fail('projector');
    expect(await health.live()).toMatchObject({ code: 503, body: { status: 'error' } });
    expect(await health.ready(['projector'])).toMatchObject({
      code: 503,
      body: {
        status: 'error',
        error: { readers: { status: 'down', failed: 'projector' } },
        info: { event_store: { status: 'up' } },
      },
    });
    expect(health.failure).toBe('projector');
  });
});
