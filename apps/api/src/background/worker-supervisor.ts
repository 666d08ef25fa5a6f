import { fork, type ChildProcess } from 'node:child_process';
import type { OnApplicationShutdown } from '@nestjs/common';
import { logger } from '@app/platform/logging/logger';
import type { EventStore } from '@app/platform/event-store/event-store.port';
import { answerAppend } from '@app/platform/event-store/parent-process-writer';
import { processSignals } from '@app/platform/log-reader/process-signals';
import { coalesced, type FromWorker, type ToWorker, type WorkerReport } from '@app/platform/log-reader/worker-protocol';
import type { MetricsJson } from '@app/platform/metrics/metrics';

export const WORKER_SUPERVISOR = Symbol('WORKER_SUPERVISOR');

export interface WorkerState {
  readonly state: 'starting' | 'running' | 'restarting' | 'stopped';
  readonly pid: number | null;
  /** Starts after the first, whatever ended the previous one (an exit, or a kill for not answering). */
  readonly restarts: number;
  /** Of those, the workers killed because they stopped answering the heartbeat. */
  readonly unresponsive_kills: number;
  /** Null while the worker is not answering (starting, restarting, or too slow). */
  readonly report: WorkerReport | null;
}

export interface SupervisorOptions {
  /** Compiled entry of the worker (dist/apps/worker/src/main.js). */
  readonly entry: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Node's flags for the worker (default: this process's own, as `fork` does). */
  readonly execArgv?: readonly string[];
  /** Delay before a restart: doubles from `first` up to `max`, back to `first` after a long run. */
  readonly backoffMs?: { readonly first: number; readonly max: number };
  readonly readyTimeoutMs?: number;
  /**
   * A ping every `intervalMs`; a worker that has answered none for `timeoutMs` since it was ready
   * (SIGSTOPped, or an event loop that never comes back) is killed (SIGKILL) and started again
   * with the backoff.
   */
  readonly heartbeat?: { readonly intervalMs: number; readonly timeoutMs: number };
}

const STABLE_MS = 60_000;

/**
 * The worker's node flags: this process's own (a loader, an inspector port moved aside by node), with
 * its heap limit. Past the limit V8 collects harder, and a worker whose live data outgrew it exits
 * (out of memory) and is restarted from its checkpoints: its memory has a ceiling whatever the
 * history (issue 26). A flag on the command line wins over one in NODE_OPTIONS.
 */
export const workerFlags = (maxHeapMb: number): string[] => [
  ...process.execArgv.filter((f) => !f.startsWith('--max-old-space-size')),
  `--max-old-space-size=${maxHeapMb}`,
];

/**
 * `npm start` runs the log's readers in one worker (apps/worker, every role) beside the API, so
 * they never share the event loop with HTTP. This side starts it, restarts it when it exits or
 * stops answering its heartbeat (each reader resumes from its checkpoint), stops it on shutdown,
 * commits its appends behind the API's own (one writer per log file), and relays wake-ups: the
 * API's commits to the worker, the projector's batches to read-your-writes waiters.
 */
export class WorkerSupervisor implements OnApplicationShutdown {
  private child: ChildProcess | null = null;
  private state: WorkerState['state'] = 'starting';
  private restarts = 0;
  private unresponsiveKills = 0;
  private delay: number;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lastAnswer = 0;
  private nextId = 0;
  private readonly pendingStatus = new Map<number, (report: WorkerReport) => void>();
  private readonly pendingMetrics = new Map<number, (metrics: MetricsJson) => void>();
  private readonly offAppended: () => void;
  private log: EventStore | null = null;
  private firstStart: ((ready: boolean) => void) | null = null;

  constructor(private readonly options: SupervisorOptions) {
    this.delay = options.backoffMs?.first ?? 1_000;
    this.offAppended = processSignals.appended.on(coalesced(() => this.send({ type: 'appended' })));
  }

  /**
   * Resolves once the worker has started its readers; rejects if it cannot. `log` is the stored
   * form of this process's event store (below the hash chain: the worker's appends come chained).
   */
  start(log: EventStore): Promise<void> {
    this.log = log;
    // Whatever way this process ends (a failed shutdown hook, process.exit), the worker ends too.
    process.once('exit', this.killOnExit);
    return new Promise((resolve, reject) => {
      // A large first start (indexes built on a big read store, a long catch-up) may take longer:
      // the API then serves meanwhile (lists wait, bounded) and /health says `starting`.
      const timeout = setTimeout(() => {
        this.firstStart = null;
        logger.warn(
          { component: 'worker', waited_ms: this.options.readyTimeoutMs ?? 60_000 },
          'the worker is still starting; serving meanwhile',
        );
        resolve();
      }, this.options.readyTimeoutMs ?? 60_000);
      this.firstStart = (ready) => {
        this.firstStart = null;
        clearTimeout(timeout);
        if (ready) resolve();
        else reject(new Error('the worker exited during start'));
      };
      this.spawn();
    });
  }

  private readonly killOnExit = () => {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  };

  async status(timeoutMs = 1_000): Promise<WorkerState> {
    const base = {
      state: this.state,
      pid: this.child?.pid ?? null,
      restarts: this.restarts,
      unresponsive_kills: this.unresponsiveKills,
    };
    if (this.state !== 'running') return { ...base, report: null };
    const id = ++this.nextId;
    const report = await new Promise<WorkerReport | null>((resolve) => {
      const timer = setTimeout(() => (this.pendingStatus.delete(id), resolve(null)), timeoutMs);
      this.pendingStatus.set(id, (r) => (clearTimeout(timer), this.pendingStatus.delete(id), resolve(r)));
      this.send({ type: 'status', id });
    });
    return { ...base, report };
  }

  /** The worker's metrics (its process series and gauges), for the API's /metrics; null while it does not answer. */
  async metrics(timeoutMs = 1_000): Promise<MetricsJson | null> {
    if (this.state !== 'running') return null;
    const id = ++this.nextId;
    return new Promise<MetricsJson | null>((resolve) => {
      const timer = setTimeout(() => (this.pendingMetrics.delete(id), resolve(null)), timeoutMs);
      this.pendingMetrics.set(id, (m) => (clearTimeout(timer), this.pendingMetrics.delete(id), resolve(m)));
      this.send({ type: 'metrics', id });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.offAppended();
    process.off('exit', this.killOnExit);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stopHeartbeat();
    const child = this.child;
    this.state = 'stopped';
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    // Readers flush their batches and release leases on SIGTERM; a hung worker does not hold the API.
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }

  private spawn(): void {
    const started = performance.now();
    const child = fork(this.options.entry, [], {
      env: this.options.env ?? process.env,
      execArgv: [...(this.options.execArgv ?? process.execArgv)],
      stdio: 'inherit',
    });
    this.child = child;
    this.lastAnswer = performance.now();
    child.on('message', (message: FromWorker) => {
      this.lastAnswer = performance.now();
      if (message.type === 'append')
        void answerAppend(this.log!, message).then((reply) => child.connected && child.send(reply));
      else if (message.type === 'projected') processSignals.checkpointsMoved.notify();
      else if (message.type === 'status') this.pendingStatus.get(message.id)?.(message.report);
      else if (message.type === 'metrics') this.pendingMetrics.get(message.id)?.(message.metrics);
      else if (message.type === 'ready') {
        this.state = 'running';
        this.firstStart?.(true);
      }
    });
    // A channel error (the worker gone mid-send) is followed by its exit, which restarts it.
    child.on('error', (err) => logger.warn({ err, component: 'worker' }, 'worker channel error'));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      this.stopHeartbeat();
      if (this.stopping) return;
      // The first start fails the API's start (a misconfiguration shows at once); later exits restart.
      if (this.firstStart) return this.firstStart(false);
      logger.error({ code, signal, pid: child.pid, component: 'worker' }, 'worker exited; restarting it');
      this.scheduleRestart(performance.now() - started);
    });
    this.startHeartbeat(child);
  }

  /**
   * Every answer counts (a status, an append); a ping makes sure there is one to wait for.
   *
   * Times here are durations this process measures of itself (performance.now(), monotonic), not
   * the clock's time of day.
   *
   * The worker is judged on the time this process was responsive, not on the wall clock: while
   * the API's own event loop is blocked (a long response built synchronously), the worker's
   * answers wait unread in the channel, and the first tick after the block runs (timers come
   * before I/O in the loop) before they are read. So each tick counts at most one interval of
   * silence, however late it fired: a block of any length costs the worker one interval, while a
   * worker that really stopped (SIGSTOP) is still killed after `timeoutMs` of ticks on time. The
   * uncounted time is the API's loop delay, logged with a kill.
   */
  private startHeartbeat(child: ChildProcess): void {
    const { intervalMs, timeoutMs } = this.options.heartbeat ?? { intervalMs: 1_000, timeoutMs: 10_000 };
    this.stopHeartbeat();
    let lastTick = performance.now();
    let silentMs = 0;
    let blockedMs = 0;
    this.heartbeatTimer = setInterval(() => {
      const now = performance.now();
      const sinceTick = now - lastTick;
      const answered = this.lastAnswer >= lastTick;
      lastTick = now;
      if (this.child !== child || child.exitCode !== null || child.signalCode !== null) return;
      if (answered) silentMs = blockedMs = 0;
      else {
        silentMs += Math.min(sinceTick, intervalMs);
        blockedMs += Math.max(0, sinceTick - intervalMs);
      }
      // Only once it is ready: a start may hold the event loop for long on a large store (index
      // builds, a projection rebuilt from 0), and /health shows a worker stuck there as `starting`.
      if (this.state === 'running' && silentMs > timeoutMs) {
        logger.error(
          { pid: child.pid, silent_ms: silentMs, api_blocked_ms: blockedMs, component: 'worker' },
          'worker stopped answering its heartbeat; killing it',
        );
        this.unresponsiveKills++;
        this.stopHeartbeat();
        child.kill('SIGKILL');
        return;
      }
      this.send({ type: 'ping', id: ++this.nextId });
    }, intervalMs);
    this.heartbeatTimer.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private scheduleRestart(ranForMs: number): void {
    const { first, max } = this.options.backoffMs ?? { first: 1_000, max: 30_000 };
    if (ranForMs >= STABLE_MS) this.delay = first;
    this.state = 'restarting';
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      this.state = 'starting';
      this.spawn();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, max);
  }

  private send(message: ToWorker): void {
    const child = this.child;
    if (child?.connected)
      child.send(
        message,
        (err) => err && logger.debug({ err, component: 'worker' }, 'the worker did not take a message'),
      );
  }
}
