#!/usr/bin/env node
// `npm run generate:client`: builds the OpenAPI document from the app (no server needed) and
// writes the typed client's types, clients/typescript/schema.d.ts, with openapi-typescript.
// `--check` writes nothing and exits 1 when the committed file differs from a fresh generation.
'use strict';
require('./ts-register.js');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'error';
const { appDocument } = require('./openapi/app-document.ts');
const { clientSchema, CLIENT_SCHEMA_FILE } = require('./openapi/client-schema.ts');

async function main() {
  // Nothing else may hold the event loop while openapi-typescript works (the app is closed by then).
  const alive = setInterval(() => {}, 1000);
  try {
    return await generate(process.argv.includes('--check'));
  } finally {
    clearInterval(alive);
  }
}

async function generate(check) {
  const file = join(__dirname, '..', CLIENT_SCHEMA_FILE);
  const text = await clientSchema(await appDocument());
  if (check) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== text)
      return {
        code: 1,
        message: `${CLIENT_SCHEMA_FILE} differs from the OpenAPI document: run npm run generate:client\n`,
      };
    return { code: 0, message: `${CLIENT_SCHEMA_FILE} is up to date\n` };
  }
  writeFileSync(file, text);
  return { code: 0, message: `wrote ${CLIENT_SCHEMA_FILE} (${text.length} bytes)\n` };
}

/** Exits once the message is written: a pipe (a test's spawnSync) is written asynchronously. */
main().then(
  ({ code, message }) => (code === 0 ? process.stdout : process.stderr).write(message, () => process.exit(code)),
  (error) => process.stderr.write(`${error?.stack ?? error}\n`, () => process.exit(1)),
);
