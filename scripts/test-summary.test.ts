import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = (name: string) => join('scripts/fixtures', name);

async function summary(...reports: string[]) {
  const { stdout } = await run(process.execPath, ['scripts/test-summary.mjs', ...reports]);
  return stdout.trim().split('\n');
}

describe('test-summary.mjs', () => {
  it('counts a test that passed on a retry as flaky, not passed, and names it', async () => {
    // Real reports: a Playwright run with one retry (one test failing once, one always, one skipped)
    // and a Vitest run with a `retry: 1` test, written down by scripts/vitest-flaky-reporter.mjs.
    const lines = await summary(
      fixture('vitest-retried.json'),
      fixture('vitest-flaky.json'),
      fixture('playwright-flaky.json'),
    );
    expect(lines).toEqual([
      'failed: Playwright: flaky.spec.ts › always fails [chromium]: Error: wrong answer',
      'flaky: Vitest: scripts/fixtures/vitest-flaky/retried.fixture.ts › passes on its second attempt (passed after 1 retry)',
      'flaky: Playwright: flaky.spec.ts › room › keeps its video [chromium] (passed on retry 1; first: Error: the picture froze)',
      'tests: 2 passed, 1 failed, 1 skipped, 2 flaky',
    ]);
  });

  it('names a failed Vitest test with the first line of its error', async () => {
    expect(await summary(fixture('vitest-failed.json'))).toEqual([
      'failed: Vitest: /repo/apps/server/test/example.test.ts › example pushes within the budget: Error: no push',
      'tests: 1 passed, 1 failed, 0 skipped, 0 flaky',
    ]);
  });

  it('says 0 flaky when nothing was retried, and fails a missing report', async () => {
    const lines = await summary(fixture('vitest-retried.json'), fixture('no-such-report.json'));
    expect(lines).toEqual([
      'missing report scripts/fixtures/no-such-report.json',
      'tests: 2 passed, 1 failed, 0 skipped, 0 flaky',
    ]);
  });
});

describe('vitest-flaky-reporter.mjs', () => {
  it('records the tests Vitest passed only on a retry', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'meetcast-flaky-')), 'vitest-flaky.json');
    await run(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        fixture('vitest-flaky/vitest.config.ts'),
        '--reporter=./scripts/vitest-flaky-reporter.mjs',
      ],
      { env: { ...process.env, VITEST_FLAKY_REPORT: output } },
    );
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual({
      vitestFlaky: [
        { file: 'scripts/fixtures/vitest-flaky/retried.fixture.ts', name: 'passes on its second attempt', retries: 1 },
      ],
    });
  });
});
