'use strict';
// node bench/replay.js [--events 1000000] [--dir DATA_DIR]
// Times `npm run replay -- --verify` (the compiled CLI, in its own process under /usr/bin/time -v)
// on a large log: the log is written by generate-log.js (unless DATA_DIR already holds one), the
// live read models are then caught up by the projector in this process (the replay compares with
// them, and waits for them to reach the head), then the replay runs. Prints the replay's events
// per second (its own figures), its peak RSS (/usr/bin/time's maximum resident set size, and the
// replay's own report), the largest size its scratch store reached on disk, and its exit status.
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, rmSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { generateLog } = require('./generate-log');
const { dist, report } = require('./support');

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ROOT = join(__dirname, '..');
const env = (dir) => ({ ...process.env, DATA_DIR: dir, EVENTSTORE_URL: '', MONGO_URL: '', KAFKA_BROKERS: '' });

/** The live read models at the log's head, as the readers process would have left them. */
async function catchUp(dir) {
  const { createEventStore, createReadStore } = require(dist('libs/platform/src/adapters'));
  const { loadConfig } = require(dist('libs/platform/src/config/platform-config'));
  const { Projector } = require(dist('libs/platform/src/read-store/projector'));
  const { READ_MODELS } = require(dist('libs/read-models/src/read-models'));
  const config = loadConfig(env(dir));
  const [events, readModels] = [createEventStore(config), createReadStore(config)];
  try {
    const head = await events.headPosition();
    const started = Date.now();
    const projector = new Projector(events, readModels, READ_MODELS, { batchSize: 2000 });
    await projector.start();
    let shown = 0;
    const progress = setInterval(() => {
      if (projector.lastPosition - shown >= head / 10)
        console.error(`projector at ${(shown = projector.lastPosition)} of ${head}`);
    }, 1000);
    await projector.waitFor(head);
    clearInterval(progress);
    await projector.stop();
    return { head, seconds: ((Date.now() - started) / 1000).toFixed(1) };
  } finally {
    await Promise.all([events.close(), readModels.close()]);
  }
}

const sizeOf = (path) => {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + sizeOf(join(path, f)), 0) : s.size;
};

/** The CLI under /usr/bin/time -v, with TMPDIR of its own so the scratch store's size on disk can be watched. */
function timeReplay(dir) {
  const scratchParent = mkdtempSync(join(tmpdir(), 'bench-replay-tmp-'));
  const main = dist('apps/replay/src/main.js');
  const timed = existsSync('/usr/bin/time');
  const [cmd, args] = timed
    ? ['/usr/bin/time', ['-v', process.execPath, main, '--verify', '--no-progress']]
    : [process.execPath, [main, '--verify', '--no-progress']];
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...env(dir), TMPDIR: scratchParent } });
  let [stdout, stderr, scratchPeak] = ['', '', 0];
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const watch = setInterval(() => (scratchPeak = Math.max(scratchPeak, sizeOf(scratchParent))), 1000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearInterval(watch);
      const left = readdirSync(scratchParent);
      rmSync(scratchParent, { recursive: true, force: true });
      const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)/.exec(stderr);
      resolve({
        status,
        stdout,
        stderr,
        maxRssMb: maxRss ? Math.round(Number(maxRss[1]) / 1024) : null,
        wall: wall?.[1] ?? null,
        scratchPeakMb: Math.round(scratchPeak / 2 ** 20),
        scratchLeft: left,
      });
    });
  });
}

async function main() {
  const given = arg('dir') || process.env.DATA_DIR;
  const dir = given || mkdtempSync(join(tmpdir(), 'bench-replay-'));
  const events = Number(arg('events') || process.env.BENCH_EVENTS || 1_000_000);
  // The stores' writer thread and polling timers do not keep the process alive: this does, to the end.
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    let generated = null;
    if (!existsSync(join(dir, 'events.db'))) {
      generated = await generateLog(dir, events);
      console.error(`log written: ${generated.events} events in ${generated.seconds} s`);
    }
    const projected = await catchUp(dir);
    console.error(`live read models at position ${projected.head} in ${projected.seconds} s`);
    const run = await timeReplay(dir);
    console.log(
      run.stdout
        .split('\n')
        .filter((l) => !l.startsWith('|'))
        .join('\n'),
    );
    if (run.status !== 0) console.error(run.stderr);
    const pass =
      /log pass ([\d.]+) s \((\d+) events\/s\), whole run ([\d.]+) s \((\d+) events\/s\), peak RSS (\d+) MB/.exec(
        run.stdout,
      );
    const row = {
      events: projected.head,
      'log written s': generated?.seconds ?? '-',
      'projector s': projected.seconds,
      'replay exit': run.status,
      'log pass s': pass?.[1],
      'events/s (pass)': pass?.[2],
      'replay s': pass?.[3],
      'events/s (replay)': pass?.[4],
      'wall s (time -v)': run.wall ?? '-',
      'peak RSS MB (time -v)': run.maxRssMb ?? '-',
      'peak RSS MB (replay)': pass?.[5],
      'scratch peak MB on disk': run.scratchPeakMb,
      'scratch left': run.scratchLeft.length,
    };
    report('replay', [row], { data_dir: dir });
  } finally {
    clearInterval(keepAlive);
    if (!given) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
