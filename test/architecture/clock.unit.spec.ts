import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { clockReads, tsFiles } from './source-scans';

const ROOT = join(__dirname, '..', '..');
const F = 'test/architecture/fixture/clock-rule';

/** Test code inside apps/ and libs/: specs, the port contract suites specs run, and testing/ helpers only specs import. */
const isTest = (p: string) => /\.spec\.ts$|\.contract\.ts$|(^|\/)testing\//.test(p);

/**
 * The production code under `root` (the repository or the fixture): apps/ and libs/, tests aside,
 * and without the clock itself (libs/platform/src/clock) and the dashboard (apps/dashboard, a
 * browser app Vite builds apart: it runs in the viewer's browser, whose clock is its clock).
 */
const productionFiles = (root: string) =>
  ['apps', 'libs']
    .filter((dir) => existsSync(join(ROOT, root, dir)))
    .flatMap((dir) =>
      tsFiles(
        join(ROOT, root, dir),
        (p) =>
          !isTest(p) &&
          !`${dir}/${p}`.startsWith('libs/platform/src/clock/') &&
          !`${dir}/${p}`.startsWith('apps/dashboard/'),
      ),
    );

/**
 * The exceptions of today, each with why; an entry no longer needed fails the test, so the list
 * can only shrink.
 */
const ALLOW_LIST: readonly { readonly file: string; readonly reason: string }[] = [
  {
    file: 'apps/api/src/onboarding/validators.ts',
    reason:
      'isBirthDate compares a date of birth with today in a class-validator decorator, which runs outside the container (no injection); ' +
      'the form is the check in the entity decider, against the now its command carries.',
  },
];

describe('no-clock-outside-the-clock: time comes from the injected Clock (libs/platform/src/clock), issue 33 item 2', () => {
  const found = clockReads(productionFiles('.'));
  const allowed = (line: string) => ALLOW_LIST.some((a) => line.startsWith(`${a.file}:`));

  it('no production file of apps/ or libs/ reads the machine clock, the allow-list aside', () => {
    expect(found.filter((line) => !allowed(line))).toEqual([]);
  });

  it('every allow-list entry is still needed', () => {
    expect(ALLOW_LIST.filter((a) => !found.some((line) => line.startsWith(`${a.file}:`)))).toEqual([]);
  });

  it('fires on a fixture handler, and not on the clock itself, a test, a given time, a duration, a local Date, comments or strings', () => {
    const H = `${F}/libs/application/src/send-reminder.handler.ts`;
    expect(clockReads(productionFiles(F))).toEqual([
      `${H}:9: Date.now`,
      `${H}:10: new Date()`,
      `${H}:11: Date()`,
      `${H}:12: globalThis.Date`,
      `${H}:13: Date.now`,
    ]);
  });
});
