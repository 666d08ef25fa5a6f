import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'supertest';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { bearer, KEYS, type TestApp } from '../support/test-app';

export const REPLAYED = 'idempotent-replayed';

/** A request with a credential and an Idempotency-Key. */
export const withKey = (key: string, credential: string = KEYS.sandbox) => ({
  ...bearer(credential),
  'Idempotency-Key': key,
});

export const uniqueKey = (what = 'k') => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** Whether the answer is a replay (the header §13 names), and it says so exactly. */
export const replayed = (res: Response): boolean => {
  const header = res.headers[REPLAYED];
  if (header !== undefined && header !== 'true') throw new Error(`Idempotent-Replayed: ${header}`);
  return header === 'true';
};

/** The log's head: a refused request that wrote nothing leaves it where it was. */
export const logHead = (t: TestApp): Promise<number> => t.app.get<EventStore>(EVENT_STORE).headPosition();

export async function accountsOf(t: TestApp, entityId: string, credential: string = KEYS.sandbox): Promise<string[]> {
  const res = await t.http.get(`/accounts?entity_id=${entityId}&limit=100`).set(bearer(credential)).expect(200);
  return (res.body.data as Array<{ id: string }>).map((a) => a.id);
}

export const accountBody = (entityId: string, over: Record<string, unknown> = {}) => ({
  entity_id: entityId,
  type: 'checking',
  currency: 'USD',
  ...over,
});

/**
 * Holds the next command the API executes until `release()`: a request that is really running
 * (its key claimed, its handler inside the command bus) for as long as the test needs, with
 * nothing added to the production code. `entered` resolves once the command is held.
 */
export function holdNextCommand(t: TestApp): { entered: Promise<void>; release: () => void; restore: () => void } {
  const bus = t.app.get(CommandBus);
  const execute = bus.execute.bind(bus);
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const inside = new Promise<void>((r) => (entered = r));
  const spy = jest.spyOn(bus, 'execute').mockImplementationOnce(async (command) => {
    entered();
    await gate;
    return execute(command);
  });
  return { entered: inside, release, restore: () => spy.mockRestore() };
}

/** Polls `probe` (at most `ms`) until `done`; for waits on time the test set short (TTL, lease). */
export async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  ms = 45_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never reached: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
