/**
 * Turns of the event loop shared by every stream of the process: one stream works per turn, so
 * however many streams run, a request's next step (its socket read, a store's answer) waits
 * behind one stream's slice at most, not one slice of each. A waiter is woken from `setImmediate`,
 * and the next one is scheduled from there, which Node runs on the following turn, after that
 * turn's I/O: streams share what the requests leave, and one stream alone goes at full speed.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function wakeNext(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(wakeNext);
}

/** Resolves on a later turn of the event loop, when it is this caller's turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
