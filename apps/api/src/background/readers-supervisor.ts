import { fork, type ChildProcess } from 'node:child_process';
import type { OnApplicationShutdown } from '@nestjs/common';
import { logger } from '@app/platform/logging/logger';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { answerAppend } from '@app/platform/event-store/parent-process-writer';
import { processSignals } from '@app/platform/log-reader/process-signals';
import { coalesced, type FromReaders, type ReadersReport, type ToReaders } from './reader-messages';

export const BACKGROUND_READERS = Symbol('BACKGROUND_READERS');

export interface ReadersState {
  readonly state: 'starting' | 'running' | 'restarting' | 'stopped';
  readonly pid: number | null;
  readonly restarts: number;
  /** Null while the process is not answering (starting, restarting, or too slow). */
  readonly report: ReadersReport | null;
}

export interface SupervisorOptions {
  /** Compiled entry of the readers process (readers.main.js beside this file). */
  readonly entry: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Delay before a restart: doubles from `first` up to `max`, back to `first` after a long run. */
  readonly backoffMs?: { readonly first: number; readonly max: number };
  readonly readyTimeoutMs?: number;
}

const STABLE_MS = 60_000;

/**
 * `npm start` runs the log's readers (projector, publisher, webhook worker, process managers) in a
 * second process so that they never share the event loop with HTTP. This side starts it, restarts
 * it when it exits (each reader resumes from its checkpoint), stops it on shutdown, commits its
 * appends (one writer per log file), and relays wake-ups: the API's commits to the readers, the
 * projector's progress to read-your-writes waiters.
 */
export class ReadersSupervisor implements OnApplicationShutdown {
  private child: ChildProcess | null = null;
  private state: ReadersState['state'] = 'starting';
  private restarts = 0;
  private delay: number;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private nextStatusId = 0;
  private readonly pendingStatus = new Map<number, (report: ReadersReport) => void>();
  private readonly offAppended: () => void;
  private log: EventStore | null = null;
  private firstStart: ((ready: boolean) => void) | null = null;

  constructor(private readonly options: SupervisorOptions) {
    this.delay = options.backoffMs?.first ?? 1_000;
    this.offAppended = processSignals.appended.on(coalesced(() => this.send({ type: 'appended' })));
  }

  /**
   * Resolves once the readers process has started its readers; rejects if it cannot. `log` is the
   * stored form of this process's event store (below the hash chain: appends come chained).
   */
  start(log: EventStore): Promise<void> {
    this.log = log;
    // Whatever way this process ends (a failed shutdown hook, process.exit), the readers end too.
    process.once('exit', this.killOnExit);
    return new Promise((resolve, reject) => {
      // A large first start (indexes built on a big read store, a long catch-up) may take longer:
      // the API then serves meanwhile (lists wait, bounded) and /health says `starting`.
      const timeout = setTimeout(() => {
        this.firstStart = null;
        logger.warn({ component: 'readers', waited_ms: this.options.readyTimeoutMs ?? 60_000 }, 'the readers process is still starting; serving meanwhile');
        resolve();
      }, this.options.readyTimeoutMs ?? 60_000);
      this.firstStart = (ready) => {
        this.firstStart = null;
        clearTimeout(timeout);
        if (ready) resolve();
        else reject(new Error('the readers process exited during start'));
      };
      this.spawn();
    });
  }

  private readonly killOnExit = () => {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  };

  async status(timeoutMs = 1_000): Promise<ReadersState> {
    const base = { state: this.state, pid: this.child?.pid ?? null, restarts: this.restarts };
    if (this.state !== 'running') return { ...base, report: null };
    const id = ++this.nextStatusId;
    const report = await new Promise<ReadersReport | null>((resolve) => {
      const timer = setTimeout(() => (this.pendingStatus.delete(id), resolve(null)), timeoutMs);
      this.pendingStatus.set(id, (r) => (clearTimeout(timer), this.pendingStatus.delete(id), resolve(r)));
      this.send({ type: 'status', id });
    });
    return { ...base, report };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.offAppended();
    process.off('exit', this.killOnExit);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    this.state = 'stopped';
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    // Readers flush their batches and release leases on SIGTERM; a hung one does not hold the API.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }

  private spawn(): void {
    const started = Date.now();
    const child = fork(this.options.entry, [], { env: this.options.env ?? process.env, stdio: 'inherit' });
    this.child = child;
    child.on('message', (message: FromReaders) => {
      if (message.type === 'append') void answerAppend(this.log!, message).then((reply) => child.connected && child.send(reply));
      else if (message.type === 'projected') processSignals.checkpointsMoved.notify();
      else if (message.type === 'status') this.pendingStatus.get(message.id)?.(message.report);
      else if (message.type === 'ready') {
        this.state = 'running';
        this.firstStart?.(true);
      }
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      // The first start fails the API's start (a misconfiguration shows at once); later exits restart.
      if (this.firstStart) return this.firstStart(false);
      logger.error({ code, signal, pid: child.pid, component: 'readers' }, 'readers process exited; restarting it');
      this.scheduleRestart(Date.now() - started);
    });
  }

  private scheduleRestart(ranForMs: number): void {
    const { first, max } = this.options.backoffMs ?? { first: 1_000, max: 30_000 };
    if (ranForMs >= STABLE_MS) this.delay = first;
    this.state = 'restarting';
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      this.spawn();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, max);
  }

  private send(message: ToReaders): void {
    const child = this.child;
    if (child?.connected) child.send(message, (err) => err && logger.debug({ err, component: 'readers' }, 'readers process did not take a message'));
  }
}
