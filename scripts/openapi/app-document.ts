import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/platform/config/platform-config';
import { createApi } from '../../apps/api/src/app.factory';
import { OpenApiDocuments } from '../../apps/api/src/openapi/docs.controller';
import type { OpenApiDocument } from '../../apps/api/src/openapi/openapi-document';

/**
 * The OpenAPI document of the API as `npm start` builds it (createApi on the embedded adapters in
 * a scratch DATA_DIR, no worker), for the client generator and the tests.
 */
export async function appDocument(): Promise<OpenApiDocument> {
  const dir = mkdtempSync(join(tmpdir(), 'payments-openapi-'));
  const config = loadConfig({ DATA_DIR: dir, SANDBOX_AUTO_ADVANCE: 'false' });
  const app = await createApi(config);
  try {
    return app.get(OpenApiDocuments).document();
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
