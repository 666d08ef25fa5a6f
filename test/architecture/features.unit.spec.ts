import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * A feature in one place (issue 33): each layer has one folder per feature, named the same in every
 * layer, so a payout's controller, command, decider, handler, projection and presenter are found at
 * apps/api/src/transfers, libs/application/src/transfers, libs/domain/src/transfers and
 * libs/read-models/src/transfers. A feature need not exist in every layer (bank codes are reference
 * data served by the API alone); what may not happen is a second name for it, or a folder that is
 * neither a feature nor one of the layer's own named parts below.
 */
export const FEATURES = [
  'access',
  'accounts',
  'admin',
  'audit',
  'bank-codes',
  'cards',
  'collections',
  'counterparties',
  'ledger',
  'onboarding',
  'transfers',
  'webhooks',
] as const;

/** What each layer has besides features, and why it is not one. */
export const LAYER_PARTS: Readonly<Record<string, readonly string[]>> = {
  // Money, errors and ids every decider shares.
  'libs/domain/src': ['shared'],
  // The command handlers' plumbing (load, fold, decide, append, retry) and the in-memory test kit (the process-manager runtime is libs/platform/src/log-processing).
  'libs/application/src': ['command-handling', 'testing'],
  // The list query plans every list handler builds on, and the proof that none scans a collection.
  'libs/read-models/src': ['plans'],
  // The HTTP edge (pipes, filters, guards), the OpenAPI document, probes and metrics, the supervisor of npm start's worker, the dashboard's files.
  'apps/api/src': ['http', 'openapi', 'health', 'metrics', 'background', 'dashboard'],
};

/** `layer/folder` for every folder at the top of a layer that is neither a feature nor one of its parts. */
export function strayFolders(
  root: string,
  features: readonly string[],
  parts: Readonly<Record<string, readonly string[]>>,
): string[] {
  return Object.entries(parts).flatMap(([layer, own]) =>
    readdirSync(join(root, layer), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !features.includes(entry.name) && !own.includes(entry.name))
      .map((entry) => `${layer}/${entry.name}`),
  );
}

describe('a feature in one place: one folder per layer, the same name in each', () => {
  it('every folder at the top of a layer is a feature or a named part of that layer', () => {
    expect(strayFolders(ROOT, FEATURES, LAYER_PARTS)).toEqual([]);
  });

  it('every named part still exists (the lists only describe what is there)', () => {
    const missing = Object.entries(LAYER_PARTS).flatMap(([layer, own]) =>
      own.filter((part) => !readdirSync(join(ROOT, layer)).includes(part)).map((part) => `${layer}/${part}`),
    );
    expect(missing).toEqual([]);
  });

  it('fires on a fixture that files a payout use case under a second name', () => {
    const fixture = join(ROOT, 'test/architecture/fixture');
    expect(
      strayFolders(fixture, ['payouts'], {
        'libs/application/src': ['command-handling'],
        'libs/read-models/src': [],
        'apps/api/src': [],
      }),
    ).toEqual(['libs/application/src/payout-operations']);
  });
});
