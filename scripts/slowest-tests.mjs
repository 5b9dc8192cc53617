// Prints where the suite's time goes, from the Vitest and Playwright JSON reports: the slowest Vitest
// files, the slowest Playwright tests, and each Playwright project's summed test time. The suite must
// stay under 25 minutes on two cores; this is the list to read before adding or shortening a test.
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, playwrightFile] = process.argv.slice(2);
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const top = (rows, count) => rows.sort((a, b) => b.ms - a.ms).slice(0, count);

if (vitestFile && existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'));
  const files = (report.testResults ?? []).map((result) => ({
    name: result.name.replace(`${process.cwd()}/`, ''),
    ms: result.endTime - result.startTime,
  }));
  console.log(`slowest Vitest files (of ${files.length}, ${seconds(files.reduce((sum, f) => sum + f.ms, 0))} in all):`);
  for (const file of top(files, 12)) console.log(`  ${seconds(file.ms).padStart(6)}  ${file.name}`);
}

function* playwrightResults(suite) {
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? [])
      for (const result of test.results ?? [])
        yield { name: `${spec.file} › ${spec.title}`, project: test.projectName, ms: result.duration };
  for (const child of suite.suites ?? []) yield* playwrightResults(child);
}

if (playwrightFile && existsSync(playwrightFile)) {
  const report = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  const results = (report.suites ?? []).flatMap((suite) => [...playwrightResults(suite)]);
  const byProject = new Map();
  for (const result of results) byProject.set(result.project, (byProject.get(result.project) ?? 0) + result.ms);
  console.log(
    `Playwright test time by project: ${[...byProject].map(([project, ms]) => `${project} ${seconds(ms)}`).join(', ')}`,
  );
  console.log('slowest Playwright tests (each try):');
  for (const result of top(results, 12))
    console.log(`  ${seconds(result.ms).padStart(6)}  [${result.project}] ${result.name.slice(0, 110)}`);
}
