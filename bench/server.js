'use strict';
// One benchmark target per process, so the three never share a CPU with each other or with the load.
// Usage: node server.js api|nest-empty|express <port> ; prints "READY" when listening.
require('reflect-metadata');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const [mode, port] = [process.argv[2], Number(process.argv[3])];
const dist = (p) => join(process.env.BENCH_DIST || join(__dirname, '..', 'dist'), p);

async function api() {
  // Exactly what `npm start` runs: the API, and one worker with every role, which it supervises.
  const { createApiWithWorker } = require(dist('apps/api/src/background/api-with-worker'));
  const { loadConfig } = require(dist('libs/platform/src/config/platform-config'));
  const { BootstrapService } = require(dist('libs/application/src/access'));
  // One key drives hundreds of requests a second: the per-key limit (100/s by default) would turn
  // most of them into 429s, so it is off unless BENCH_RATE_LIMIT sets it (the limiter's own cost).
  const rateLimit = process.env.BENCH_RATE_LIMIT || '0';
  const env = {
    ...process.env,
    RATE_LIMIT_PER_SECOND: rateLimit,
    PORT: String(port),
    DATA_DIR: process.env.DATA_DIR || mkdtempSync(join(tmpdir(), 'bench-')),
    LOG_LEVEL: 'warn',
  };
  const app = await createApiWithWorker(loadConfig(env), env);
  await app.get(BootstrapService).run();
  await app.listen(port);
}

async function nestEmpty() {
  const { Controller, Module, Post } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  class EmptyController {
    empty() {
      return {};
    }
  }
  Controller()(EmptyController);
  Post('empty')(
    EmptyController.prototype,
    'empty',
    Object.getOwnPropertyDescriptor(EmptyController.prototype, 'empty'),
  );
  class EmptyModule {}
  Module({ controllers: [EmptyController] })(EmptyModule);
  const app = await NestFactory.create(EmptyModule, { logger: false });
  await app.listen(port);
}

async function rawExpress() {
  const express = require('express');
  const app = express();
  app.use(express.json());
  app.post('/empty', (_req, res) => res.status(201).json({}));
  await new Promise((resolve) => app.listen(port, resolve));
}

const servers = { api, 'nest-empty': nestEmpty, express: rawExpress };
servers[mode]()
  .then(() => console.log('READY'))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
