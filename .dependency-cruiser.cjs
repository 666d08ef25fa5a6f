/**
 * The architecture's import rules (docs/architecture.md, "Layers"), checked by
 * test/architecture/layers.unit.spec.ts on every `npm test`. Paths are matched anywhere in the
 * path ((^|/)) so the test can also prove each rule fires on a small fixture tree.
 */
const READ_SIDE = '(^|/)libs/(platform/src/read-store|read-models)/';
/**
 * Read models that still run application code. The event index builds each event's public body with
 * the same function the by-id history and proof queries use (libs/application/src/admin, which
 * also redacts); the statement checks the account and proves each row through application queries;
 * the statement page answers 404 or 403 by the same tenancy rule (visibility) and error (DomainException)
 * the commands use. Moving those under both sides is the fix; until then the rule names them rather
 * than hiding them.
 */
const READ_MODELS_TAKING_APPLICATION_VALUES = [
  '(^|/)libs/read-models/src/audit/event-index\\.projection\\.ts$',
  '(^|/)libs/read-models/src/accounts/statement-query\\.handler\\.ts$',
  '(^|/)libs/read-models/src/accounts/list-account-transactions\\.query-handler\\.ts$',
];

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
      name: 'read-models-import-application-types-only',
      comment:
        'A read model depends on the application for its contracts (types), never for behaviour: what both sides run lives below them or in the read model. ' +
        'The files named in pathNot are the exceptions of today, with their reason above READ_MODELS_TAKING_APPLICATION_VALUES; the list can only shrink.',
      severity: 'error',
      from: { path: '(^|/)libs/read-models/', pathNot: ['\\.spec\\.ts$', ...READ_MODELS_TAKING_APPLICATION_VALUES] },
      to: { path: '(^|/)libs/application/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'webhook-router-on-streams',
      comment: 'Which webhooks get an event is decided from the webhook streams as of the event, not the list model.',
      severity: 'error',
      from: { path: '(^|/)libs/webhook-delivery/src/consumer/' },
      to: { path: READ_SIDE },
    },
    {
      name: 'log-processing-runtime-imports-no-processor',
      comment:
        'The log-processing runtime (checkpointed reader, leases, the process-manager registry) knows no feature and none of its processors: ' +
        'features register their process managers into it, the platform gives it the projector and the publisher, never the reverse.',
      severity: 'error',
      from: { path: '(^|/)libs/platform/src/log-processing/', pathNot: '\\.spec\\.ts$' },
      to: {
        path: [
          '(^|/)libs/(domain|application|read-models|webhook-delivery)/',
          '(^|/)libs/platform/src/(read-store/projector|bus/bus-publisher)\\.ts$',
        ],
      },
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
