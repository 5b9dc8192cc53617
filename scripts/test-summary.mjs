// Adds up the Vitest and Playwright JSON reports into one closing line:
// "tests: N passed, N failed, N skipped, N flaky". A flaky test failed and then passed on a retry
// (playwright.config.ts retries once in CI; Vitest's `retry` option, recorded by
// scripts/vitest-flaky-reporter.mjs): it does not fail the run, but it is named, so that it gets fixed
// instead of absorbed. It also names what fails a run without failing a test (a test file that did not
// load, an error outside every test, Vitest's unhandled errors): CI shows only the end of the output.
import { existsSync, readFileSync } from 'node:fs';

// Playwright's messages carry terminal colours.
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) =>
  String(text ?? '')
    .replace(COLOURS, '')
    .split('\n')[0];

/** Every Playwright test under a suite, with the titles of the suites and spec above it. */
function* playwrightTests(suite, titles = []) {
  // The top suites are the spec files, already named by `spec.file`.
  const path = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) yield { spec, test, name: [...path, spec.title].join(' › ') };
  }
  for (const child of suite.suites ?? []) yield* playwrightTests(child, path);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const flaky = [];
const problems = [];
// CI shows only the end of the output: a failed test is named here, with the first line of its error.
const failedTests = [];
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
      for (const test of result.assertionResults ?? []) {
        if (test.status === 'failed')
          failedTests.push(
            `Vitest: ${result.name} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
          );
      }
      if (result.status === 'failed' && result.assertionResults.every((test) => test.status !== 'failed')) {
        problems.push(`Vitest: ${result.name} failed outside its tests: ${firstLine(result.message)}`);
      }
    }
    if (report.success === false && report.numFailedTests === 0) {
      problems.push('Vitest reported errors outside the tests (see "Unhandled Errors" above)');
    }
  } else if ('vitestFlaky' in report) {
    // Vitest's own report already counted these as passed.
    passed -= report.vitestFlaky.length;
    for (const test of report.vitestFlaky) {
      flaky.push(
        `Vitest: ${test.file} › ${test.name} (passed after ${test.retries} ${test.retries === 1 ? 'retry' : 'retries'})`,
      );
    }
  } else if (report.stats) {
    passed += report.stats.expected;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    let named = 0;
    for (const suite of report.suites ?? []) {
      for (const { spec, test, name } of playwrightTests(suite)) {
        if (test.status === 'unexpected') {
          const last = test.results.at(-1);
          failedTests.push(
            `Playwright: ${spec.file} › ${name} [${test.projectName}]: ${firstLine(last?.error?.message ?? last?.status)}`,
          );
        }
        if (test.status !== 'flaky') continue;
        named += 1;
        const failures = test.results.filter((result) => result.status !== 'passed');
        const reason = firstLine(failures[0]?.error?.message ?? failures[0]?.status);
        flaky.push(
          `Playwright: ${spec.file} › ${name} [${test.projectName}] (passed on retry ${failures.length}; first: ${reason})`,
        );
      }
    }
    // A flaky test that the walk above could not find (an unknown report shape) is still counted.
    for (let index = named; index < report.stats.flaky; index += 1)
      flaky.push('Playwright: a test not named in the report');
    for (const error of report.errors ?? []) {
      problems.push(`Playwright: ${firstLine(error.message ?? error.value)}`);
    }
  }
}
for (const problem of problems) console.log(problem);
for (const failure of failedTests) console.log(`failed: ${failure}`);
for (const test of flaky) console.log(`flaky: ${test}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped, ${flaky.length} flaky`);
