// Three projects so a developer can run the fast layer alone (`npm run test:unit`).
// ts-jest in transpile-only mode: `npm test` typechecks once with tsc, so Jest only transpiles.
const tsJest = ['ts-jest', { diagnostics: false }];
const common = {
  transform: { '^.+\\.ts$': tsJest },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
  moduleNameMapper: {
    '^@app/(domain|platform|application|read-models|webhook-delivery)$': '<rootDir>/libs/$1/src',
    '^@app/(domain|platform|application|read-models|webhook-delivery)/(.*)$': '<rootDir>/libs/$1/src/$2',
  },
};
module.exports = {
  // Jest 29 reads the timeout globally only; e2e and int tests wait on real I/O on loaded CI machines.
  testTimeout: 60_000,
  // After Jest's own: every skipped test with its reason, and a skip without one fails the run (test/support/skip-reasons-reporter.js).
  reporters: ['default', '<rootDir>/test/support/skip-reasons-reporter.js'],
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/**/*.unit.spec.ts',
        '<rootDir>/apps/**/*.unit.spec.ts',
        '<rootDir>/test/architecture/*.unit.spec.ts',
        '<rootDir>/test/openapi/*.unit.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'int',
      testMatch: ['<rootDir>/libs/**/*.int.spec.ts', '<rootDir>/apps/**/*.int.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e.spec.ts', '<rootDir>/apps/**/*.e2e.spec.ts'],
    },
  ],
};
