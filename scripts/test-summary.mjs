// Adds up the Vitest and Playwright JSON reports into one closing line: "tests: N passed, N failed".
// It also names what fails a run without failing a test (a test file that did not load, an error
// outside every test, Vitest's unhandled errors): CI shows only the end of the output.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    problems.push(`missing report ${file}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const result of report.testResults ?? []) {
      if (result.status === 'failed' && result.assertionResults.every((test) => test.status !== 'failed')) {
        problems.push(`Vitest: ${result.name} failed outside its tests: ${String(result.message).split('\n')[0]}`);
      }
    }
    if (report.success === false && report.numFailedTests === 0) {
      problems.push('Vitest reported errors outside the tests (see "Unhandled Errors" above)');
    }
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    for (const error of report.errors ?? []) {
      problems.push(`Playwright: ${String(error.message ?? error.value ?? '').split('\n')[0]}`);
    }
  }
}
for (const problem of problems) console.log(problem);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
