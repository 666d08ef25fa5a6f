// The reporter is plain JavaScript (Jest loads reporters untransformed).
const SkipReasonsReporter = require('../support/skip-reasons-reporter');

type Status = 'passed' | 'pending';
const result = (path: string, tests: [string, Status][], console?: string[]) => ({
  testFilePath: `/repo/${path}`,
  skipped: tests.every(([, s]) => s === 'pending'),
  testResults: tests.map(([title, status]) => ({ title, fullName: title, status })),
  console: console?.map((message) => ({ message, origin: '', type: 'warn' })),
});

/** What the reporter prints at the end of a run over `results`, and whether it fails the run. */
function report(results: ReturnType<typeof result>[], globalConfig: Record<string, unknown> = {}) {
  const reporter = new SkipReasonsReporter({ rootDir: '/repo', ...globalConfig });
  for (const r of results) reporter.onTestResult({}, r);
  const printed: string[] = [];
  const write = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
  try {
    reporter.onRunComplete();
  } finally {
    write.mockRestore();
  }
  return { printed: printed.join(''), error: reporter.getLastError() as Error | undefined };
}

describe('the skip-reasons reporter (Jest drops the console of an all-skipped suite)', () => {
  it('prints each skipped suite with what it said about skipping, or its "skipped: …" test titles', () => {
    const { printed, error } = report([
      result(
        'a.int.spec.ts',
        [['MessageBus contract', 'pending']],
        ['MessageBus contract: kafka skipped: KAFKA_BROKERS is not set', 'unrelated'],
      ),
      result('b.e2e.spec.ts', [
        ['runs', 'passed'],
        ['skipped: no kubectl on PATH', 'pending'],
      ]),
      result('c.unit.spec.ts', [['runs', 'passed']]),
    ]);
    expect(printed).toContain(
      'a.int.spec.ts (all 1 skipped): MessageBus contract: kafka skipped: KAFKA_BROKERS is not set\n',
    );
    expect(printed).toContain('b.e2e.spec.ts (1 skipped): skipped: no kubectl on PATH\n');
    expect(printed).not.toContain('c.unit.spec.ts');
    expect(printed).not.toContain('unrelated');
    expect(error).toBeUndefined();
  });

  it('fails the run for a skip that gives no reason, and names it', () => {
    const { printed, error } = report([result('d.unit.spec.ts', [['does something', 'pending']])]);
    expect(printed).toContain('d.unit.spec.ts (all 1 skipped): NO REASON GIVEN');
    expect(error?.message).toContain('d.unit.spec.ts');
  });

  it('says nothing of the tests a -t pattern left out', () => {
    expect(report([result('d.unit.spec.ts', [['does something', 'pending']])], { testNamePattern: 'other' })).toEqual({
      printed: '',
      error: undefined,
    });
  });
});
