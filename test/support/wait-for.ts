/**
 * Waits for a condition, never for a time (issue 32: tests that raced a timer failed on a busy
 * machine). `probe` runs until `done` accepts its value; the bound is generous, there only so a
 * test that will never see its condition fails with `what` instead of at Jest's timeout (60 s, so
 * the bound is under it). It is not a measure: how fast something happens is measured in bench/,
 * not asserted here.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  boundMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`waited ${boundMs} ms for ${what}; last seen: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
