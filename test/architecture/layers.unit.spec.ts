import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

/** Runs dependency-cruiser with the project's rules (.dependency-cruiser.cjs) over `paths`. */
function violations(...paths: string[]): Violation[] {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  // Exit status is non-zero when rules are broken; the JSON report is printed either way.
  let out: string;
  try {
    out = execFileSync(bin, ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...paths], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('architecture rules (docs/architecture.md, Layers)', () => {
  it('the code breaks none of them', () => {
    const found = violations('apps', 'libs').map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found).toEqual([]);
  });

  it('each rule fires on a fixture that breaks it', () => {
    const byRule = (name: string) => violations('test/architecture/fixture').filter((v) => v.rule.name === name).map((v) => `${v.from} → ${v.to}`);
    const F = 'test/architecture/fixture';
    expect(byRule('commands-decide-on-streams')).toEqual([`${F}/libs/application/src/command-reading-a-read-model.ts → ${F}/libs/platform/src/read-store/read-store.port.ts`]);
    expect(byRule('webhook-router-on-streams')).toEqual([`${F}/libs/webhook-delivery/src/consumer/router-on-list-model.ts → ${F}/libs/read-models/src/webhook-list.ts`]);
    expect(byRule('no-app-imports-another-app')).toEqual([`${F}/apps/one/src/main.ts → ${F}/apps/two/src/thing.ts`]);
    expect(byRule('libs-never-import-apps')).toEqual([`${F}/libs/webhook-delivery/src/consumer/router-on-list-model.ts → ${F}/apps/two/src/thing.ts`]);
    expect(byRule('domain-is-pure').map((v) => v.split(' → ')[1])).toEqual(expect.arrayContaining(['fs', expect.stringContaining('node_modules/@nestjs/common/')]));
  });
});
