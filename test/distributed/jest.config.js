// `npm run test:integration` (scripts/test-integration.js): the production adapter contract suites
// and the distributed scenario, against the servers the script started. Reuses the int project's
// transform and module mapping; kept out of `npm test`, which has no servers.
const root = require('../../jest.config.js');
const int = root.projects.find((p) => p.displayName === 'int');

module.exports = {
  ...int,
  rootDir: '../..',
  displayName: 'integration',
  testTimeout: 180_000,
  testMatch: [
    '<rootDir>/libs/platform/src/read-store/mongo-read-store.int.spec.ts',
    '<rootDir>/libs/read-models/src/plans/list-query-plans.int.spec.ts',
    '<rootDir>/libs/read-models/src/ledger/ledger.projection.int.spec.ts',
    '<rootDir>/libs/platform/src/snapshots/mongo-snapshot-store.int.spec.ts',
    '<rootDir>/libs/platform/src/coordination/mongo-coordination-store.int.spec.ts',
    '<rootDir>/libs/platform/src/rate-limit/mongo-rate-limit-store.int.spec.ts',
    '<rootDir>/libs/platform/src/idempotency/mongo-idempotency-store.int.spec.ts',
    '<rootDir>/libs/platform/src/delivery-store/mongo-delivery-store.int.spec.ts',
    '<rootDir>/libs/platform/src/bus/kafka-message-bus.int.spec.ts',
    '<rootDir>/test/distributed/**/*.dist.spec.ts',
  ],
};
