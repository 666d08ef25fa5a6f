import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { logger } from '@app/platform/logging/logger';

/**
 * `npm start`'s worker lowers itself to `WORKER_NICE` (issue 28): on two cores shared by the API,
 * the worker and their threads, a request then runs before the log's readers, whose work can wait
 * a few milliseconds (they batch more when they do). Measured at 230 payouts/s and at full load,
 * in bench/README.md.
 *
 * Linux keeps a niceness per thread: the threads V8 and libuv started before this call are each
 * set (`/proc/self/task`), and those started later inherit the main thread's. Elsewhere the call
 * sets the process. A niceness is only ever raised: a worker started lower already stays there.
 */
export function lowerPriority(niceness: number): void {
  if (niceness === 0) return;
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const thread of threads) {
    try {
      if (getPriority(thread) < niceness) setPriority(thread, niceness);
    } catch (err) {
      // A thread that ended between the listing and the call.
      logger.debug({ err, thread }, 'could not lower the priority of a worker thread');
    }
  }
}
