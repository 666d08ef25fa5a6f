// A Jest reporter (jest.config.js) that says why each skipped test was skipped (issue 32). Jest's
// default reporter prints nothing of a suite whose tests are all skipped, its console included, so
// the contract suites that skip without KAFKA_BROKERS, MONGO_URL or EVENTSTORE_URL said why to no
// one. At the end of the run this lists every suite with a skipped test and its reason: what the
// suite wrote to the console about skipping (`console.warn('… skipped: …')`), else the titles of
// its skipped tests that give one (`it.skip('skipped: set KAFKA_BROKERS to run', …)`). A skip that
// gives no reason fails the run, so a test cannot be switched off silently.
'use strict';
const { relative } = require('node:path');

const SAYS_WHY = /skip|not run/i;

/** The reasons `result` (a Jest TestResult) gives for its skipped tests: none when it skipped nothing. */
function skipReasons(result, unbufferedConsole = false) {
  const skipped = result.testResults.filter((t) => t.status === 'pending' || t.status === 'skipped');
  if (skipped.length === 0) return null;
  const said = (result.console ?? [])
    .filter((entry) => SAYS_WHY.test(entry.message))
    .map((entry) => entry.message.trim());
  const titled = skipped.filter((t) => /^skipped\b/i.test(t.title)).map((t) => t.fullName ?? t.title);
  // Under --verbose Jest prints the console as it goes instead of buffering it: whatever was said is above.
  const unbuffered = unbufferedConsole && said.length + titled.length === 0 ? ['(what the suite printed, above)'] : [];
  return {
    count: skipped.length,
    whole: result.skipped === true,
    reasons: [...new Set(said.length ? said : [...titled, ...unbuffered])],
  };
}

class SkipReasonsReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // `-t pattern` skips every test it does not name: those are not the suite's skips.
    this.filtered = Boolean(globalConfig.testNamePattern);
    this.verbose = Boolean(globalConfig.verbose);
    this.suites = [];
  }

  onTestResult(_test, result) {
    if (this.filtered) return;
    const found = skipReasons(result, this.verbose);
    if (found) this.suites.push({ path: relative(this.rootDir, result.testFilePath), ...found });
  }

  onRunComplete() {
    if (this.suites.length === 0) return;
    const lines = [`\nSkipped, and why (${this.suites.length} suite${this.suites.length === 1 ? '' : 's'}):`];
    for (const s of this.suites.sort((a, b) => a.path.localeCompare(b.path))) {
      const what = s.whole ? `all ${s.count} skipped` : `${s.count} skipped`;
      lines.push(`  ${s.path} (${what}): ${s.reasons.length ? s.reasons.join(' | ') : 'NO REASON GIVEN'}`);
    }
    const silent = this.suites.filter((s) => s.reasons.length === 0).length;
    if (silent)
      lines.push(
        `  ${silent} skipped without a reason: this fails the run (console.warn why, or title the skipped test "skipped: why").`,
      );
    process.stderr.write(`${lines.join('\n')}\n\n`);
  }

  /** Jest fails the run when a reporter returns an error here. */
  getLastError() {
    const silent = this.suites.filter((s) => s.reasons.length === 0);
    if (silent.length === 0) return undefined;
    return new Error(
      `skipped without a reason (console.warn why, or title the skipped test "skipped: why"): ${silent.map((s) => s.path).join(', ')}`,
    );
  }
}

module.exports = SkipReasonsReporter;
module.exports.skipReasons = skipReasons;
