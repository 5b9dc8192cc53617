// Vitest's JSON report counts a test that failed and then passed on a retry (`retry` option) as passed
// and says nothing more. This reporter writes those tests down so scripts/test-summary.mjs can name them:
// { "vitestFlaky": [{ "file", "name", "retries" }] } in $VITEST_FLAKY_REPORT (reports/vitest-flaky.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export default class FlakyReporter {
  flaky = [];

  onTestCaseResult(testCase) {
    const diagnostic = testCase.diagnostic();
    if (diagnostic?.flaky) {
      this.flaky.push({
        file: relative(process.cwd(), testCase.module.moduleId),
        name: testCase.fullName,
        retries: diagnostic.retryCount,
      });
    }
  }

  onTestRunEnd() {
    const output = resolve(process.env.VITEST_FLAKY_REPORT ?? 'reports/vitest-flaky.json');
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, `${JSON.stringify({ vitestFlaky: this.flaky }, null, 2)}\n`);
  }
}
