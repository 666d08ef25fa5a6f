// Validates an OpenAPI document (JSON, on stdin) against the OpenAPI schema of its version with
// @seriousme/openapi-schema-validator, and also resolves every $ref. Prints {valid, version, errors}
// as JSON; exit status 0 when valid. ESM only, so the Jest suite runs it as a child process
// (apps/api/src/openapi/openapi.int.spec.ts).
import { Validator } from '@seriousme/openapi-schema-validator';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const validator = new Validator();
const result = await validator.validate(document);
let refs = null;
if (result.valid) {
  try {
    validator.resolveRefs();
  } catch (error) {
    refs = String(error?.message ?? error);
  }
}
const valid = result.valid && refs === null;
process.stdout.write(
  JSON.stringify({ valid, version: validator.version, errors: result.errors ?? null, refs }, null, 2) + '\n',
);
process.exit(valid ? 0 : 1);
