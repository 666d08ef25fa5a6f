// Runs the project's TypeScript without building dist/: `node -r ./scripts/ts-register.js some.ts`.
// Each .ts file is transpiled alone with the compiler the project already has (tsconfig sets
// isolatedModules, so that is sound; `npm run typecheck` checks the types), and the @app/*
// aliases resolve to libs/<name>/src as tsconfig.json and jest.config.js map them.
// (The same approach as test/audit/ts-register.js, for scripts and examples.)
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..');
const ALIAS = /^@app\/(domain|platform|application|read-models|webhook-delivery)(\/.*)?$/;

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = ALIAS.exec(request);
  return resolve.call(this, alias ? join(ROOT, 'libs', alias[1], 'src', alias[2] ?? '') : request, ...rest);
};

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  resolveJsonModule: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  inlineSourceMap: true,
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
