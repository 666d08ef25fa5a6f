import { join } from 'node:path';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { ReadersSupervisor } from './readers-supervisor';

const entry = join(__dirname, 'readers-supervisor.fixture.js');
// The stand-in never appends, so the supervisor is never asked to commit through this log.
const log = {} as EventStore;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  for (const deadline = Date.now() + 10_000; !(await check()); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
};

describe('ReadersSupervisor', () => {
  let supervisor: ReadersSupervisor | null = null;
  afterEach(async () => supervisor?.onApplicationShutdown());

  it('starts the readers process, asks it for its status, and keeps no answered request', async () => {
    supervisor = new ReadersSupervisor({ entry });
    await supervisor.start(log);
    for (let i = 0; i < 5; i++) expect(await supervisor.status()).toMatchObject({ state: 'running', restarts: 0, report: { projected: 7, published: 7 } });
    expect((supervisor as unknown as { pendingStatus: Map<number, unknown> }).pendingStatus.size).toBe(0);
  });

  it('starts it again after it dies, with backoff, and stops it on shutdown', async () => {
    supervisor = new ReadersSupervisor({ entry, backoffMs: { first: 50, max: 100 } });
    await supervisor.start(log);
    const first = (await supervisor.status()).pid!;
    process.kill(first, 'SIGKILL');
    await until(async () => (await supervisor!.status()).restarts === 1 && (await supervisor!.status()).state === 'running', 'a restart');
    const second = (await supervisor.status()).pid!;
    expect(second).not.toBe(first);
    await supervisor.onApplicationShutdown();
    await until(() => !alive(second), 'the readers process to stop');
    expect(await supervisor.status()).toMatchObject({ state: 'stopped', pid: null });
    supervisor = null;
  });

  it('fails the start when the readers process exits before it is ready', async () => {
    supervisor = new ReadersSupervisor({ entry, env: { ...process.env, FIXTURE_EXIT_AT_START: '1' } });
    await expect(supervisor.start(log)).rejects.toThrow('the readers process exited during start');
  });
});
