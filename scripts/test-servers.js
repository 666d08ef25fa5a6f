#!/usr/bin/env node
'use strict';
/**
 * Real servers for the integration tests, without Docker: an Apache Kafka broker (KRaft, one
 * combined broker/controller) and mongo-java-server (MongoDB wire protocol), both resolved from
 * Maven Central into ~/.m2 by the projects in deploy/local/, on 127.0.0.1 and random free ports.
 * Every JVM started here is stopped by its pid: by stop(), and on exit or a signal at the latest.
 *
 * CLI (for a developer): `node scripts/test-servers.js [kafka] [mongo]` prints the variables to
 * export and keeps the servers up until Ctrl-C.
 */
const { spawn, execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');
const running = new Set();

/** The jars of one deploy/local Maven project, downloaded into ~/.m2 on first use. */
function classpath(project) {
  const dir = join(ROOT, 'deploy', 'local', project);
  // Cached beside the other build caches, outside the tracked tree; the jars stay in ~/.m2.
  const out = join(ROOT, 'node_modules', '.cache', 'test-servers', `${project}.classpath`);
  const fresh = existsSync(out) && statSync(out).mtimeMs >= statSync(join(dir, 'pom.xml')).mtimeMs;
  if (
    !fresh ||
    !readFileSync(out, 'utf8')
      .trim()
      .split(':')
      .every((jar) => existsSync(jar))
  ) {
    process.stderr.write(`resolving ${project} from Maven Central into ~/.m2 …\n`);
    execFileSync(
      'mvn',
      [
        '-B',
        '-q',
        '-Dstyle.color=never',
        '-f',
        join(dir, 'pom.xml'),
        'dependency:build-classpath',
        `-Dmdep.outputFile=${out}`,
      ],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
  }
  return readFileSync(out, 'utf8').trim();
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function canConnect(port) {
  return new Promise((done) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Starts a JVM whose output goes to a log file; the returned handle stops it by pid. */
function startJvm(name, args, logFile, workDir) {
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  const keep = (chunk) => {
    log.push(chunk);
    writeFileSync(logFile, chunk, { flag: 'a' });
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const handle = {
    name,
    pid: child.pid,
    workDir,
    exited,
    output: () => Buffer.concat(log).toString('utf8'),
    /** SIGKILL: no shutdown at all; the work directory stays, for a restart on the same data. */
    async kill() {
      running.delete(handle);
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
      await exited;
    },
    async stop() {
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(
        () => child.exitCode === null && child.signalCode === null && process.kill(child.pid, 'SIGKILL'),
        15_000,
      );
      await exited;
      clearTimeout(timer);
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    },
  };
  running.add(handle);
  return handle;
}

/** Waits until `port` accepts connections; fails at once if the JVM exits first. */
async function waitForPort(jvm, port, timeoutMs) {
  let exit = null;
  jvm.exited.then((e) => (exit = e));
  const deadline = Date.now() + timeoutMs;
  while (!(await canConnect(port))) {
    if (exit)
      throw new Error(`${jvm.name} exited (${JSON.stringify(exit)}) before listening:\n${jvm.output().slice(-4000)}`);
    if (Date.now() > deadline)
      throw new Error(`${jvm.name} did not listen on ${port} within ${timeoutMs} ms:\n${jvm.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function startMongo() {
  const cp = classpath('mongo');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mongo-wire-'));
  const source = join(ROOT, 'deploy', 'local', 'mongo', 'MongoWireServer.java');
  const jvm = startJvm(
    'mongo-java-server',
    ['-Xmx512m', '-cp', cp, source, String(port)],
    join(dir, 'server.log'),
    dir,
  );
  await stopOnFailure(jvm, () => waitForPort(jvm, port, 60_000));
  return { url: `mongodb://127.0.0.1:${port}`, pid: jvm.pid, stop: () => jvm.stop() };
}

async function startKafka() {
  const cp = classpath('kafka');
  const [port, controllerPort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'kafka-kraft-'));
  const props = join(dir, 'server.properties');
  writeFileSync(props, kafkaProperties(dir, port, controllerPort));
  writeFileSync(join(dir, 'log4j.properties'), LOG4J.replace('LOG_FILE', join(dir, 'broker.log')));
  const jvmArgs = ['-Xms256m', '-Xmx768m', `-Dlog4j.configuration=file:${join(dir, 'log4j.properties')}`, '-cp', cp];
  // A Kafka cluster id is 16 random bytes, base64url without padding. One starting with '-' reads
  // as an option to the tool's argument parser (Kafka's own Uuid.randomUuid redraws those too).
  let clusterId;
  do clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-'));
  const format = startJvm(
    'kafka-storage-format',
    [...jvmArgs, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', props],
    join(dir, 'format.log'),
  );
  const formatted = await format.exited;
  if (formatted.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`kafka storage format failed (${JSON.stringify(formatted)}):\n${format.output()}`);
  }
  const brokers = `127.0.0.1:${port}`;
  const boot = async () => {
    const started = startJvm('kafka', [...jvmArgs, 'kafka.Kafka', props], join(dir, 'broker.log'), dir);
    await stopOnFailure(started, async () => {
      await waitForPort(started, port, 120_000);
      await waitForMetadata(brokers);
    });
    return started;
  };
  let jvm = await boot();
  return {
    brokers,
    get pid() {
      return jvm.pid;
    },
    stop: () => jvm.stop(),
    /** A crash (the fault tests): SIGKILL, no shutdown; its log directory stays for restart(). */
    kill: () => jvm.kill(),
    /** The same broker again on the same ports and log directory, ready as at start (metadata, groups). */
    async restart() {
      jvm = await boot();
    },
  };
}

/**
 * A listening socket is not yet a broker that answers: wait for cluster metadata, then for a group
 * coordinator (the first group request creates __consumer_offsets), so tests meet a warm broker.
 */
async function waitForMetadata(brokers) {
  const { Kafka, logLevel } = require('kafkajs');
  const admin = new Kafka({
    clientId: 'test-servers',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 30, maxRetryTime: 2000 },
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await admin.fetchOffsets({ groupId: 'test-servers-ready', topics: [] });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`Kafka group coordinator not available: ${error.message}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await admin.disconnect();
  }
}

async function stopOnFailure(jvm, work) {
  try {
    await work();
  } catch (error) {
    await jvm.stop();
    throw error;
  }
}

function kafkaProperties(dir, port, controllerPort) {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${join(dir, 'data')}`,
    // Topics come from the adapter's admin client, as in production.
    'auto.create.topics.enable=false',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    // A consumer group forms at once instead of waiting 3 s for more members.
    'group.initial.rebalance.delay.ms=0',
    '',
  ].join('\n');
}

const LOG4J = [
  'log4j.rootLogger=WARN, file',
  'log4j.logger.kafka=INFO',
  'log4j.appender.file=org.apache.log4j.FileAppender',
  'log4j.appender.file.File=LOG_FILE',
  'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
  'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
  '',
].join('\n');

/** Last resort: whatever is still running when this process goes is killed by its pid. */
function killAllSync() {
  for (const jvm of running) {
    try {
      process.kill(jvm.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    if (jvm.workDir) rmSync(jvm.workDir, { recursive: true, force: true });
  }
  running.clear();
}
process.on('exit', killAllSync);

async function stopAll() {
  await Promise.all([...running].map((jvm) => jvm.stop()));
}

module.exports = { startKafka, startMongo, stopAll };

if (require.main === module) {
  const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ['kafka', 'mongo'];
  const stop = () => stopAll().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  (async () => {
    if (wanted.includes('mongo')) process.stdout.write(`export MONGO_URL=${(await startMongo()).url}\n`);
    if (wanted.includes('kafka')) process.stdout.write(`export KAFKA_BROKERS=${(await startKafka()).brokers}\n`);
    process.stdout.write('# running; Ctrl-C stops them\n');
  })().catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
