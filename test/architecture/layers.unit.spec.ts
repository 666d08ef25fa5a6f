import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  controllerImports,
  controllerImportVerdict,
  processOrClockReads,
  tsFiles,
  type ControllerImport,
} from './source-scans';

const ROOT = join(__dirname, '..', '..');
const F = 'test/architecture/fixture';

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

/**
 * Runs dependency-cruiser over `paths` with the rules of test/architecture/dependency-cruiser.cjs:
 * the project's .dependency-cruiser.cjs and the rules this test adds to it.
 */
function cruise(...paths: string[]): Violation[] {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  // Exit status is non-zero when rules are broken; the JSON report is printed either way.
  let out: string;
  try {
    out = execFileSync(
      bin,
      ['--config', 'test/architecture/dependency-cruiser.cjs', '--output-type', 'json', ...paths],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

/** Each tree is cruised once (a run takes seconds), however many rules the test reads off it. */
const cruised = new Map<string, Violation[]>();
const violations = (...paths: string[]) =>
  cruised.get(paths.join(' ')) ?? cruised.set(paths.join(' '), cruise(...paths)).get(paths.join(' '))!;

/** The controllers under `root` (the repository or the fixture): apps/api/src/**\/*.controller.ts. */
const controllersUnder = (root: string) =>
  tsFiles(join(ROOT, root, 'apps/api/src'), (p) => p.endsWith('.controller.ts'));
/** `file:line name (why)` for each import of `controllers` the rule refuses. */
const refused = (imports: readonly ControllerImport[]) =>
  imports.flatMap((i) => {
    const why = controllerImportVerdict(i);
    return why ? [`${i.at} ${i.name} (${why})`] : [];
  });

/**
 * controllers-through-buses, the exceptions of today: each entry is a controller reaching past the
 * buses, with why. An entry no longer needed fails the test, so the list can only shrink.
 */
const CONTROLLER_ALLOW_LIST: readonly {
  readonly file: string;
  readonly names: readonly string[];
  readonly reason: string;
}[] = [
  {
    file: 'apps/api/src/health/health.controller.ts',
    names: ['describeAdapters', 'PLATFORM_CONFIG', 'PlatformConfig', 'EVENT_STORE', 'EventStore', 'PlatformLifecycle'],
    reason:
      'GET /health is an operator probe, not a use case: it reports this process itself (the adapters configured, the log head, ' +
      'the projector and publisher positions, the load on writes, the worker npm start supervises), which no command or query of the log models.',
  },
  {
    file: 'apps/api/src/collections/three-ds.controller.ts',
    names: ['PLATFORM_CONFIG', 'PlatformConfig'],
    reason:
      'The 3-D Secure page keys its form (CSRF) tokens from the platform master key, read from the config at construction: ' +
      'HTTP-edge security rather than a use case; the bus-free form is a token-key provider of apps/api injected in its place.',
  },
  {
    file: 'apps/api/src/bank-codes/bank-codes.controller.ts',
    names: ['bankCodesFor', 'SUPPORTED_BANK_CODE_COUNTRIES'],
    reason:
      'The bank-code datasets are static reference data shipped in libs/platform/src/bank-codes, read in process with no store; ' +
      'the bus-only form is a GetBankCodesQuery in libs/application, a new use case rather than a fix here.',
  },
  {
    file: 'apps/api/src/access/api-keys.controller.ts',
    names: ['managedKeyModes'],
    reason:
      'The worlds whose keys the caller manages (decisions §1: a live key both modes) are computed here to build ListApiKeysQuery; ' +
      'the fix is for the list query to take the actor and apply the rule itself (libs/read-models and libs/application).',
  },
  {
    file: 'apps/api/src/audit/audit.controller.ts',
    names: ['RESOURCE_STREAMS'],
    reason:
      'The resource table (decisions §10) is pure data the controller needs at the HTTP edge (one history route per collection, ' +
      'resource_type validation); it lives in the operator use case (list-organization-events/public-event.ts), and moving it is a change there.',
  },
];

describe('architecture rules (docs/architecture.md, Layers)', () => {
  describe('import rules (dependency-cruiser)', () => {
    it('the code breaks none of them', () => {
      const found = violations('apps', 'libs').map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
      expect(found).toEqual([]);
    });

    it('each rule fires on a fixture that breaks it', () => {
      const byRule = (name: string) =>
        violations(F)
          .filter((v) => v.rule.name === name)
          .map((v) => `${v.from} → ${v.to}`);
      expect(byRule('commands-decide-on-streams')).toEqual([
        `${F}/libs/application/src/command-reading-a-read-model.ts → ${F}/libs/platform/src/read-store/read-store.port.ts`,
      ]);
      expect(byRule('webhook-router-on-streams')).toEqual([
        `${F}/libs/webhook-delivery/src/consumer/router-on-list-model.ts → ${F}/libs/read-models/src/webhook-list.ts`,
      ]);
      // The type import of the same file is allowed; the function is not.
      expect(byRule('read-models-import-application-types-only')).toEqual([
        `${F}/libs/read-models/src/payouts/payout-limit-view.ts → ${F}/libs/application/src/payouts/payout-limits.ts`,
      ]);
      expect(byRule('no-app-imports-another-app')).toEqual([`${F}/apps/one/src/main.ts → ${F}/apps/two/src/thing.ts`]);
      expect(byRule('libs-never-import-apps')).toEqual([
        `${F}/libs/webhook-delivery/src/consumer/router-on-list-model.ts → ${F}/apps/two/src/thing.ts`,
      ]);
      expect(byRule('domain-is-pure').map((v) => v.split(' → ')[1])).toEqual(
        expect.arrayContaining(['fs', expect.stringContaining('node_modules/@nestjs/common/')]),
      );
      // Not the platform's own adapter, nor a spec (exempt): an app and a read model.
      expect(byRule('only-platform-imports-drivers').map((v) => v.replace(/node_modules\/([^/]+)\/.*$/, '$1'))).toEqual(
        [
          `${F}/apps/one/src/driver-in-app.ts → better-sqlite3`,
          `${F}/apps/one/src/driver-in-app.ts → kafkajs`,
          `${F}/libs/read-models/src/mongo-read-model.ts → mongodb`,
        ],
      );
      // Not the spec that checks platform data against a domain rule (exempt).
      expect(byRule('platform-imports-no-inner-layer')).toEqual([
        `${F}/libs/platform/src/log-processing/runtime-knowing-its-processors.ts → ${F}/libs/application/src/payouts/payout-rails.process-manager.ts`,
        `${F}/libs/platform/src/outer-layers.ts → ${F}/libs/application/src/command-reading-a-read-model.ts`,
        `${F}/libs/platform/src/outer-layers.ts → ${F}/libs/domain/src/impure-decider.ts`,
        `${F}/libs/platform/src/outer-layers.ts → ${F}/libs/read-models/src/webhook-list.ts`,
        `${F}/libs/platform/src/outer-layers.ts → ${F}/libs/webhook-delivery/src/consumer/router-on-list-model.ts`,
      ]);
      expect(byRule('log-processing-runtime-imports-no-processor')).toEqual([
        `${F}/libs/platform/src/log-processing/runtime-knowing-its-processors.ts → ${F}/libs/application/src/payouts/payout-rails.process-manager.ts`,
        `${F}/libs/platform/src/log-processing/runtime-knowing-its-processors.ts → ${F}/libs/platform/src/bus/bus-publisher.ts`,
      ]);
      expect(byRule('imports-are-declared').map((v) => v.replace(/node_modules\/([^/]+)\/.*$/, '$1'))).toEqual([
        `${F}/apps/one/src/undeclared-package.ts → base64-js`,
      ]);
      expect(
        byRule('running-code-imports-no-dev-package').map((v) => v.replace(/node_modules\/([^/]+)\/.*$/, '$1')),
      ).toEqual([`${F}/apps/one/src/dev-package-at-runtime.ts → supertest`]);
      expect(byRule('domain-imports-no-node-builtin')).toEqual([
        `${F}/libs/domain/src/clock-reading-decider.ts → crypto`,
        `${F}/libs/domain/src/clock-reading-decider.ts → os`,
        `${F}/libs/domain/src/impure-decider.ts → fs`,
      ]);
    });
  });

  describe('read-models-import-application-types-only: its exceptions', () => {
    it('every read model named in the rule still imports an application value, and no other does', () => {
      const rule = (
        require(join(ROOT, '.dependency-cruiser.cjs')) as {
          forbidden: { name: string; from: { pathNot?: string[] } }[];
        }
      ).forbidden.find((r) => r.name === 'read-models-import-application-types-only')!;
      const exceptions = rule.from.pathNot!.filter((p) => !p.includes('spec')).map((p) => new RegExp(p));
      const valueImport = /^import (?!type )[^;]*from '@app\/application/m;
      const taking = tsFiles(join(ROOT, 'libs/read-models/src'), (p) => !p.endsWith('.spec.ts'))
        .filter((file) => valueImport.test(readFileSync(file, 'utf8')))
        .map((file) => relative(ROOT, file));
      expect(taking.sort()).toEqual(taking.filter((file) => exceptions.some((e) => e.test(file))).sort());
      expect(exceptions.every((e) => taking.some((file) => e.test(file)))).toBe(true);
    });
  });

  describe('controllers-through-buses: a controller reaches the application through the CommandBus and QueryBus only', () => {
    // The rule itself is controllerImportVerdict (source-scans.ts): from libs/application only
    // commands and queries (with their types), other types and DomainException; nothing from
    // libs/platform; no list query handler from libs/read-models.
    let imports: ControllerImport[];
    beforeAll(() => {
      imports = controllerImports(controllersUnder('.'));
    });
    const allowed = new Set(CONTROLLER_ALLOW_LIST.flatMap((e) => e.names.map((name) => `${e.file} ${name}`)));
    const isAllowed = (line: string) => allowed.has(line.replace(/:\d+ (\S+) .*$/, ' $1'));

    it('reads every controller and follows its imports through the barrels', () => {
      expect(controllersUnder('.').length).toBeGreaterThan(20);
      expect(imports).toContainEqual(
        expect.objectContaining({
          name: 'CreateTransferCommand',
          declaredIn: 'libs/application/src/transfers/create-transfer/create-transfer.command.ts',
        }),
      );
    });

    it('no controller takes anything else, the allow-list aside', () => {
      expect(refused(imports).filter((line) => !isAllowed(line))).toEqual([]);
    });

    it('every allow-list entry is still needed', () => {
      const refusedNames = new Set(refused(imports).map((line) => line.replace(/:\d+ (\S+) .*$/, ' $1')));
      expect([...allowed].filter((entry) => !refusedNames.has(entry))).toEqual([]);
    });

    it('fires on a fixture controller, through barrels and local re-exports', () => {
      const C = `${F}/apps/api/src/payouts/payouts.controller.ts`;
      expect(refused(controllerImports(controllersUnder(F)))).toEqual([
        `${C}:3 CreatePayoutHandler (from a command or query handler)`,
        `${C}:3 PayoutRailsProcessManager (from a process manager)`,
        `${C}:3 withinLimits (a value that is not a command, query or DomainException)`,
        `${C}:4 PayoutReceipt (from a command or query handler)`,
        `${C}:6 limits (a whole application module)`,
        `${C}:7 READ_STORE (from the platform)`,
        `${C}:8 EventStore (from the platform)`,
        `${C}:10 ListPayoutsQueryHandler (a list query handler)`,
        `${C}:11 PayoutWorker (from a command or query handler)`,
      ]);
    });
  });

  describe('domain-reads-no-process-or-clock: time, randomness and configuration come in commands', () => {
    it('libs/domain (its specs included) references no process, crypto, performance or clock', () => {
      expect(processOrClockReads(tsFiles(join(ROOT, 'libs/domain/src')))).toEqual([]);
    });

    it('fires on a fixture decider, and not on comments, strings, property names or a given time', () => {
      const D = `${F}/libs/domain/src/clock-reading-decider.ts`;
      expect(processOrClockReads(tsFiles(join(ROOT, F, 'libs/domain/src')))).toEqual([
        `${D}:10: Date.now`,
        `${D}:11: new Date()`,
        `${D}:12: performance`,
        `${D}:13: process`,
        `${D}:14: crypto`,
      ]);
    });
  });
});
