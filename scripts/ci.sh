#!/usr/bin/env bash
# Second quick-start command and what CI runs: every check and every test, with real PostgreSQL,
# Redis, Janus, ffmpeg and Chromium. Prints one closing line "tests: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { echo "== $1 (at $(( $(date +%s) - started )) s)"; }
bash scripts/system-packages.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# Reports live outside test-results/, which Playwright empties when it starts.
rm -rf reports && mkdir -p reports
step typecheck; npm run typecheck
step lint; npm run lint
step "unit and API tests (Vitest: PGlite, PostgreSQL, Redis)"
unit_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || unit_status=$?
step build; npm run build
step "bundle budget"; node --import tsx bench/bundle-size.ts || unit_status=1
step "end-to-end tests (Playwright, Chromium)"
e2e_status=0
PLAYWRIGHT_JSON_OUTPUT_NAME=reports/playwright.json npx playwright test --reporter=list,json || e2e_status=$?
node scripts/test-summary.mjs reports/vitest.json reports/playwright.json
echo "suite took $(( $(date +%s) - started )) s"
[ "$unit_status" -eq 0 ] && [ "$e2e_status" -eq 0 ]
