#!/usr/bin/env bash
# First quick-start command: install everything, build the web app, start at http://localhost:3000
# on the embedded database (PGlite under ./data). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-packages.sh
npm ci --no-audit --no-fund
npm run build
exec npm start
