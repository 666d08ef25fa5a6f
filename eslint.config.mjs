// ESLint 9 flat config (`npm run lint`, with `prettier --check`): the recommended rules of ESLint
// and typescript-eslint, without the type-aware set (it costs a full typecheck per run, which
// `npm run typecheck` already does), and without what only restates a style: Prettier formats.
// Why each rule below is off or tuned: docs/decisions/infrastructure.md, "Operations".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node provides to the plain JavaScript files (scripts, bench, fixtures, config); TypeScript knows its own. */
const NODE_GLOBALS = Object.fromEntries(
  [
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'process',
    'console',
    'Buffer',
    'global',
    'globalThis',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'URL',
    'URLSearchParams',
    'fetch',
    'Headers',
    'Request',
    'Response',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'atob',
    'btoa',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'coverage/**',
      'data/**',
      'test-output/**',
      '.tmp/**',
      'bench/results/**',
      // Generated from the OpenAPI document (npm run build regenerates it).
      'clients/typescript/schema.d.ts',
      // Fixture trees the architecture test cruises: they break the rules on purpose.
      'test/architecture/fixture/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Parameters and bindings named _x are unused on purpose (a signature, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `any` is rare and each one is at an untyped edge (JSON, driver rows, test bodies); typecheck is strict elsewhere.
      '@typescript-eslint/no-explicit-any': 'off',
      // `void promise` marks a promise deliberately not awaited, and `a && b()` is used as a statement in a few guards.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Empty functions are no-op callbacks and default handlers.
      '@typescript-eslint/no-empty-function': 'off',
      // Declaration merging of an interface and a class (Nest providers with a port interface) is intended.
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      // `for (;;)` loops that end by return or throw.
      'no-constant-condition': ['error', { checkLoops: false }],
      // A control character in a regular expression is how binary signatures (PNG, PDF) are matched.
      'no-control-regex': 'off',
      // `let timer` declared before the closure that clears it, assigned once after.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: NODE_GLOBALS, sourceType: 'commonjs' },
    rules: {
      // CommonJS scripts and fixtures load modules with require.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      // Tests load a module afresh, or only when a case needs it, with require.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
