// Runs an app's TypeScript entry in a child process without building dist/ (which `npm run build`
// empties first, under whatever else is using it): `node -r ./test/audit/ts-register.js apps/…/main.ts`.
// What ts-node's transpile-only mode does, with the compiler the project already has: each .ts file
// is transpiled alone (the project sets isolatedModules, so that is sound; `npm test` typechecks),
// and the @app/* aliases of tsconfig.json resolve to libs/<name>/src as jest.config.js maps them.
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const ROOT = join(__dirname, '..', '..');
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
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  inlineSourceMap: true,
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
