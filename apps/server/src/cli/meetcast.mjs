#!/usr/bin/env -S node --conditions=meetcast-compiled
// The `meetcast` bin runs the compiled command line, as `npm start` runs the compiled server
// (docs/decisions/033-production-build.md): the condition makes @meetcast/db and @meetcast/contracts
// resolve to their compiled `dist/`. A checkout that was never built is built first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const compiled = new URL('../../dist/cli/main.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write('meetcast: the server is not built yet; building it (npm run build:server)\n');
  const root = new URL('../../../../', import.meta.url);
  const build = spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(compiled.href);
