import type { Response } from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import type { HeldBackReadStore } from '../support/held-back-read-store';

/** Every case runs this many times (issue 9): a race that shows once in a few runs still fails. */
export const REPEATS = 50;

/**
 * The API on the embedded adapters, on a read store the tests hold back. The bound is short so a
 * read that waits on a held read model when it should not fails within a second, not five.
 */
export async function startHeldBackApp(
  env: Record<string, string> = {},
): Promise<TestApp & { readModels: HeldBackReadStore }> {
  const t = await startTestApp({ READ_CONSISTENCY_TIMEOUT_MS: '1500', ...env }, undefined, {
    holdableProjections: true,
  });
  if (!t.readModels) throw new Error('the test app was not built on a held-back read store');
  return t as TestApp & { readModels: HeldBackReadStore };
}

/** Runs `body` with projections held behind the log for its whole length. */
export async function whileHeld<T>(t: { readModels: HeldBackReadStore }, body: () => Promise<T>): Promise<T> {
  t.readModels.hold();
  try {
    return await body();
  } finally {
    t.readModels.release();
  }
}

export interface HeldRead {
  readonly response: Response;
  /** Whether the read answered before its write's projection was released: it must not have. */
  readonly answeredWhileHeld: boolean;
  /** Whether the projector was stopped at the gate when released (the hold really held it back). */
  readonly projectorWasHeld: boolean;
}

/**
 * The write, then the read started while the read models lag it, then the release a moment later:
 * the read may only answer once its read model includes the write.
 */
export async function readAfterWrite(
  t: { readModels: HeldBackReadStore },
  write: () => Promise<unknown>,
  read: () => PromiseLike<Response>,
): Promise<HeldRead> {
  t.readModels.hold();
  try {
    await write();
    let answered = false;
    const response = Promise.resolve(read()).finally(() => (answered = true));
    // Released once the projector is held at the gate (the read model really lags the write), or
    // the read answered first: a condition, not 15 ms that a busy machine may not give it (issue 32).
    await waitFor(
      () => answered || t.readModels.waiting > 0,
      (ready) => ready,
      'the projector to be held at the gate',
    );
    const held = { answeredWhileHeld: answered, projectorWasHeld: t.readModels.waiting > 0 };
    t.readModels.release();
    return { response: await response, ...held };
  } finally {
    t.readModels.release();
  }
}
