#!/usr/bin/env bash
# Second quick-start command and what CI runs: every check and every test, with real PostgreSQL,
# Redis, Janus, ffmpeg and Chromium. Prints one closing line "tests: N passed, N failed, N skipped, N flaky"
# (scripts/test-summary.mjs), with the flaky tests (failed, then passed on a retry) named above it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite's CI behaviour (one retry of a failed test, named as flaky) whether or not the runner sets CI.
export CI="${CI:-true}"
started=$(date +%s)
# Each step line also says how busy the cores were since the previous one (from /proc/stat), so the
# next one to shorten the suite sees which steps wait (idle cores: more parallel work fits) and which compute.
cpu_ticks() { awk '/^cpu /{ print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat; }
read -r busy_before total_before < <(cpu_ticks)
step() {
  local busy total
  read -r busy total < <(cpu_ticks)
  echo "== $1 (at $(( $(date +%s) - started )) s; cores $(( 100 * (busy - busy_before) / (total - total_before + 1) ))% busy since the last step)"
  busy_before=$busy total_before=$total
}
bash scripts/system-packages.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# Reports live outside test-results/, which Playwright empties when it starts.
rm -rf reports && mkdir -p reports
# Type checking and linting are single-threaded, and the Vitest files mostly wait on sockets, timers and
# databases: all three run side by side on the machine's two cores (~230 s here, against ~340 s one
# after the other), and so does the web build, which needs only the sources. The build goes to a
# directory of its own: a server test without WEB_DIST_DIR serves apps/web/dist, which Vite would
# empty and refill under it; the new build replaces it once the Vitest files are done. The tests still
# run after a type or lint error (their results are worth having), but CI fails.
step "typecheck, lint, web build, and unit and API tests (Vitest: PGlite, PostgreSQL, Redis), side by side"
web_build=$(mktemp -d)
trap 'rm -rf "$web_build"' EXIT
npm run typecheck > reports/typecheck.log 2>&1 & typecheck_pid=$!
npm run lint > reports/lint.log 2>&1 & lint_pid=$!
npm run build -w @meetcast/web -- --outDir "$web_build/dist" --emptyOutDir > reports/build.log 2>&1 & build_pid=$!
unit_status=0
# The JSON report counts a test that passed on a retry as passed; the flaky reporter names it.
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json \
  --reporter=./scripts/vitest-flaky-reporter.mjs || unit_status=$?
typecheck_status=0
wait "$typecheck_pid" || typecheck_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
build_status=0
wait "$build_pid" || build_status=$?
cat reports/typecheck.log reports/lint.log reports/build.log
# Playwright serves apps/web/dist: without a fresh build there is nothing to test.
[ "$build_status" -eq 0 ] || { echo "web build failed (exit $build_status)"; exit "$build_status"; }
rm -rf apps/web/dist && mv "$web_build/dist" apps/web/dist
step "bundle budget"; bundle_status=0; node --import tsx bench/bundle-size.ts || bundle_status=$?
step "end-to-end tests (Playwright, Chromium)"
e2e_status=0
# Calls must keep their video on busy laptops and small servers: the multi-participant calls tagged
# @under-load run last with a process busy-looping beside them (playwright.config.ts, project "under-load").
PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright.json npx playwright test --reporter=list,json || e2e_status=$?
node scripts/slowest-tests.mjs reports/vitest.json reports/playwright.json || true
node scripts/test-summary.mjs reports/vitest.json reports/vitest-flaky.json reports/playwright.json
echo "exit statuses: typecheck $typecheck_status, lint $lint_status, Vitest $unit_status, bundle budget $bundle_status, Playwright $e2e_status"
step "done"
echo "suite took $(( $(date +%s) - started )) s"
[ "$typecheck_status" -eq 0 ] && [ "$lint_status" -eq 0 ] && [ "$unit_status" -eq 0 ] && [ "$bundle_status" -eq 0 ] &&
  [ "$e2e_status" -eq 0 ]
