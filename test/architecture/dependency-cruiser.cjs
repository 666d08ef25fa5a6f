/**
 * The import rules of docs/architecture.md ("Layers") as test/architecture/layers.unit.spec.ts runs
 * them: every rule of the project's .dependency-cruiser.cjs, plus the ones below (issue "Money is a
 * double-entry ledger", part 7). Paths are matched anywhere in the path ((^|/)), as in the root
 * config, so the test can prove each rule fires on test/architecture/fixture.
 *
 * Spec files (*.spec.ts) are exempt from the two rules that name them: a spec is not in the running
 * graph, and some must reach past the layer they test (the list query plans against a real MongoDB,
 * the bank-code datasets against the domain's ABA check). The domain rules exempt no spec.
 */
const SPEC = '\\.spec\\.ts$';
const DRIVERS = 'node_modules/(@types/)?(better-sqlite3|mongodb|kafkajs|@eventstore/db-client)/';

module.exports = {
  extends: '../../.dependency-cruiser.cjs',
  forbidden: [
    {
      name: 'only-platform-imports-drivers',
      comment:
        'Storage and messaging drivers sit behind the platform ports (event store, read store, bus); everything else talks to a port.',
      severity: 'error',
      from: { path: '(^|/)(apps|libs)/', pathNot: ['(^|/)libs/platform/', SPEC] },
      to: { path: DRIVERS },
    },
    {
      name: 'platform-imports-no-inner-layer',
      comment:
        'The platform is the bottom layer: ports, adapters and infrastructure know no domain, use case, read model or webhook worker.',
      severity: 'error',
      from: { path: '(^|/)libs/platform/', pathNot: SPEC },
      to: { path: '(^|/)libs/(domain|application|read-models|webhook-delivery)/' },
    },
    {
      name: 'imports-are-declared',
      comment:
        'Every package apps and libs import is in package.json: one resolved only through another package (express through @nestjs/platform-express) breaks when that one changes its own.',
      severity: 'error',
      from: { path: '(^|/)(apps|libs)/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'running-code-imports-no-dev-package',
      comment:
        'A package the running code needs is a dependency, not a devDependency (npm ci --omit=dev drops those); its @types being a devDependency made multer one. Type-only imports aside.',
      severity: 'error',
      from: { path: '(^|/)(apps|libs)/', pathNot: SPEC },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-imports-no-node-builtin',
      comment:
        'No Node built-in (node:*, crypto, …) in the domain: ids, randomness and time come in commands. The source scan of the test covers the globals (process, crypto, clocks).',
      severity: 'error',
      from: { path: '(^|/)libs/domain/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
};
