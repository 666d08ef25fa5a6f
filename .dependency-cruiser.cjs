/**
 * The architecture's import rules (docs/architecture.md, "Layers"), checked by
 * test/architecture/layers.unit.spec.ts on every `npm test`. Paths are matched anywhere in the
 * path ((^|/)) so the test can also prove each rule fires on a small fixture tree.
 */
const READ_SIDE = '(^|/)libs/(platform/src/read-store|read-models)/';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Deciders are plain TypeScript: no NestJS, no drivers, no I/O, nothing from outer layers.',
      severity: 'error',
      from: { path: '(^|/)libs/domain/' },
      to: {
        path: [
          '(^|/)(apps|libs/(platform|application|read-models|webhook-delivery))/',
          'node_modules/(@nestjs|mongodb|kafkajs|better-sqlite3|@eventstore|pino)/',
          '^(fs|net|http|https|child_process|worker_threads|dgram|dns|tls)$',
        ],
      },
    },
    {
      name: 'commands-decide-on-streams',
      comment: 'Command handlers, by-id queries and process managers read the log, never read models (they lag it).',
      severity: 'error',
      from: { path: '(^|/)libs/application/' },
      to: { path: READ_SIDE },
    },
    {
      name: 'webhook-router-on-streams',
      comment: 'Which webhooks get an event is decided from the webhook streams as of the event, not the list model.',
      severity: 'error',
      from: { path: '(^|/)libs/webhook-delivery/src/consumer/' },
      to: { path: READ_SIDE },
    },
    {
      name: 'no-app-imports-another-app',
      comment: 'Apps are deployments; what two of them share lives in a lib.',
      severity: 'error',
      from: { path: '(^|/)apps/([^/]+)/' },
      to: { path: '(^|/)apps/', pathNot: '(^|/)apps/$2/' },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '(^|/)libs/' },
      to: { path: '(^|/)apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
