import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/media/managed-janus.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'apps/server/src/cli/meetcast.mjs');
const PASSWORD = 'a compiled passphrase';

/**
 * Node's own module tracing (`esm`: every ES module it translates, `module`: every CommonJS load)
 * lists each file a process loads, so the test reads what ran rather than trusting the command.
 */
const TRACE = { NODE_DEBUG: 'esm,module' };

/** What a run of the compiled build loaded that only a TypeScript run would: the transpilers or a `.ts` source. */
function typeScriptAtRunTime(trace: string): string[] {
  const loaded = trace.match(/file:\/\/\S+|\/\S+\.(?:[cm]?js|ts)\b/g) ?? [];
  return [
    ...new Set(
      loaded.filter(
        (path) => /\/node_modules\/(?:tsx|typescript|esbuild)\//.test(path) || /\/src\/\S+\.ts$/.test(path),
      ),
    ),
  ];
}

describe('the production build', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-compiled-'));
  let server: ChildProcess | undefined;
  let serverTrace = '';

  beforeAll(async () => {
    // The build `npm start` and the `meetcast` bin run: three tsc passes, ~25 s on an idle two-core machine.
    await promisify(execFile)('npm', ['run', '--silent', 'build:server'], { cwd: ROOT });
  }, 600_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // npm, its shell and the server share one process group: the server stops as on a service stop.
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 20_000);

  it('runs the meetcast command line compiled: it migrates a fresh PGlite and creates an administrator', async () => {
    const email = `compiled.${process.pid}@example.com`;
    const child = spawn(BIN, ['create-admin', '--email', email, '--username', 'Compiled', '--password-stdin'], {
      cwd: ROOT,
      env: { ...process.env, ...TRACE, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let trace = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (trace += text));
    child.stdin.end(`${PASSWORD}\n`);
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code, trace.slice(-2000)).toBe(0);
    expect(trace).toContain('apps/server/dist/cli/main.js');
    expect(trace).toContain('packages/db/dist/client.js');
    expect(typeScriptAtRunTime(trace)).toEqual([]);
  }, 120_000);

  it('`npm start` serves /readyz on PGlite from compiled JavaScript alone, and the administrator signs in', async () => {
    const port = await freePort();
    server = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        ...TRACE,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
        COMPOSER_SPARES: '0',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr!.setEncoding('utf8').on('data', (text: string) => (serverTrace += text));
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    let ready: Response | undefined;
    while (!ready?.ok) {
      if (server.exitCode !== null) throw new Error(`the server exited: ${serverTrace.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`no /readyz within 120 s: ${serverTrace.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await fetch(`${baseUrl}/readyz`).catch(() => undefined);
    }
    expect(ready.status).toBe(200);

    const login = await fetch(`${baseUrl}/api/login.php`, {
      method: 'POST',
      body: new URLSearchParams({ email: `compiled.${process.pid}@example.com`, password: PASSWORD }),
    });
    expect(login.status).toBe(200);

    expect(serverTrace).toContain('apps/server/dist/main.js');
    expect(serverTrace).toContain('packages/contracts/dist/index.js');
    expect(serverTrace).toContain('packages/db/dist/client.js');
    expect(typeScriptAtRunTime(serverTrace)).toEqual([]);
  }, 150_000);
});
