#!/usr/bin/env node
'use strict';
/**
 * `npm run test:integration`: starts a real Kafka broker and mongo-java-server (scripts/
 * test-servers.js), builds the apps, runs the MongoDB and Kafka contract suites and the
 * distributed scenario against them, stops both servers, and fails when any of those suites
 * skipped a test or did not run at all.
 *
 * `npm run test:eventstore`: the EventStoreDB contract suite against EVENTSTORE_URL, with the
 * same rule; EventStoreDB cannot run from Maven, so that server comes from the caller.
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative, resolve } = require('node:path');
const { startKafka, startMongo, stopAll } = require('./test-servers');

const ROOT = resolve(__dirname, '..');
const SUITES = {
  integration: [
    'libs/platform/src/read-store/mongo-read-store.int.spec.ts',
    'libs/read-models/src/plans/list-query-plans.int.spec.ts',
    'libs/read-models/src/ledger/ledger.projection.int.spec.ts',
    'libs/platform/src/snapshots/mongo-snapshot-store.int.spec.ts',
    'libs/platform/src/coordination/mongo-coordination-store.int.spec.ts',
    'libs/platform/src/rate-limit/mongo-rate-limit-store.int.spec.ts',
    'libs/platform/src/delivery-store/mongo-delivery-store.int.spec.ts',
    'libs/platform/src/idempotency/mongo-idempotency-store.int.spec.ts',
    'libs/platform/src/bus/kafka-message-bus.int.spec.ts',
    'test/distributed/npm-start.dist.spec.ts',
    'test/distributed/distributed.dist.spec.ts',
    'test/distributed/projector-restart.dist.spec.ts',
    'test/distributed/two-apis.dist.spec.ts',
    'test/distributed/webhooks.dist.spec.ts',
    'test/distributed/faults.dist.spec.ts',
    'test/distributed/store-faults.dist.spec.ts',
  ],
  eventstore: ['libs/platform/src/event-store/esdb-event-store.int.spec.ts'],
};

function run(command, args, env = process.env) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** Jest's JSON report: every required suite ran, and none of its tests was skipped. */
function checkReport(file, required) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const problems = [];
  for (const suite of required) {
    const result = report.testResults.find((r) => relative(ROOT, r.name) === suite);
    if (!result) {
      problems.push(`${suite}: did not run`);
      continue;
    }
    const tests = result.assertionResults;
    const skipped = tests.filter((t) => !['passed', 'failed'].includes(t.status));
    for (const t of skipped) problems.push(`${suite}: "${t.fullName}" was ${t.status}`);
    if (!tests.some((t) => t.status === 'passed')) problems.push(`${suite}: no test passed`);
  }
  return problems;
}

async function jest(args, required, env) {
  const dir = mkdtempSync(join(tmpdir(), 'jest-report-'));
  try {
    const code = await run('npx', ['jest', ...args, '--json', `--outputFile=${join(dir, 'report.json')}`], env);
    const problems = checkReport(join(dir, 'report.json'), required);
    for (const p of problems) process.stderr.write(`integration: ${p}\n`);
    return code === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function integration() {
  // The scenario runs the compiled entry points, as the deployments do.
  if ((await run('npm', ['run', 'build'])) !== 0) return 1;
  try {
    const [mongo, kafka] = await Promise.all([startMongo(), startKafka()]);
    process.stderr.write(
      `integration: mongo-java-server at ${mongo.url} (pid ${mongo.pid}), Kafka at ${kafka.brokers} (pid ${kafka.pid})\n`,
    );
    const env = {
      ...process.env,
      MONGO_URL: mongo.url,
      KAFKA_BROKERS: kafka.brokers,
      MONGO_SERVER: 'mongo-java-server',
    };
    return await jest(['-c', 'test/distributed/jest.config.js'], SUITES.integration, env);
  } finally {
    await stopAll();
  }
}

async function eventstore() {
  if (!process.env.EVENTSTORE_URL) {
    process.stderr.write(
      'test:eventstore needs EVENTSTORE_URL, e.g.\n' +
        '  docker run -d --name esdb -p 2113:2113 eventstore/eventstore:24.10 --insecure --run-projections=None\n' +
        "  EVENTSTORE_URL='esdb://localhost:2113?tls=false' npm run test:eventstore\n",
    );
    return 1;
  }
  return jest(['--selectProjects', 'int', '--runTestsByPath', ...SUITES.eventstore], SUITES.eventstore, process.env);
}

// Ctrl-C or a CI timeout still stops the servers by pid (test-servers kills leftovers on exit).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stopAll().finally(() => process.exit(130)));

(process.argv[2] === 'eventstore' ? eventstore() : integration()).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    void stopAll().finally(() => process.exit(1));
  },
);
