import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { E2E_PORTS } from './ports';
import { freePort, killWorkerLeftovers } from '@meetcast/server/tooling';

/**
 * A whole installation for the scale-out test: two server processes on one PostgreSQL database and
 * one Redis, each with its own managed Janus, behind Debian's nginx as the load balancer. nginx sends
 * a browser to a process by its `backend` cookie and to the other when that one is down.
 */
export interface Installation {
  url: string;
  /** The `backend` cookie value that reaches each process. */
  cookieFor: [string, string];
  servers: ChildProcess[];
  /** What each process and nginx wrote (warnings and errors), to attach to a failed test. */
  logs(): string;
  stop(): Promise<void>;
}

const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '(none)';
  }
}

async function waitFor(url: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await fetch(url).catch(() => undefined))?.ok) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${url} did not answer`);
}

function nginxConfig(folder: string, listen: number, backends: number[]) {
  return `
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
user root;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream meetcast {
    hash $cookie_backend consistent;
    ${backends.map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join('\n    ')}
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://meetcast;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 3600s;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

export async function startInstallation(): Promise<Installation> {
  const database = `meetcast_e2e_scale_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const databaseUrl = new URL(ADMIN_DATABASE_URL);
  databaseUrl.pathname = `/${database}`;

  const prefix = `e2e-scale-${Date.now()}`;
  const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'meetcast-scale-')));
  // One process at a time: each starts its own Janus on a free port, which must not be the port the
  // other process was about to take.
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  let nginx: ChildProcess | undefined;
  const stop = async () => {
    nginx?.kill('SIGTERM');
    for (const server of servers) if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 1000));
    // A process killed outright leaves its Janus behind: end whatever still runs from its folder.
    for (const folder of dataDirs) spawnSync('pkill', ['-KILL', '-f', folder]);
    // ... and its spare composer stage, whose Xvfb does not name the folder: its ledger does.
    for (const folder of dataDirs) {
      const composers = join(folder, 'composers');
      for (const worker of existsSync(composers) ? readdirSync(composers) : [])
        killWorkerLeftovers(join(composers, worker));
    }
    const cleaner = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await cleaner.connect();
    await cleaner.query(`drop database if exists ${database} with (force)`);
    await cleaner.end();
  };
  // A start that fails or times out stops what it started: a retry finds the machine as it was.
  try {
    return await startProcesses();
  } catch (error) {
    await stop();
    throw error;
  }

  async function startProcesses(): Promise<Installation> {
    for (const dataDir of dataDirs) {
      const port = await freePort();
      const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl.toString(),
          REDIS_URL,
          REDIS_PREFIX: prefix,
          SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
          WEB_DIST_DIR: resolve('apps/web/dist'),
          TRUST_PROXY: '127.0.0.1',
          RATE_LIMIT_MULTIPLIER: '100',
          LOG_LEVEL: 'warn',
          ROOM_EMPTY_GRACE_SECONDS: '60',
          // No idle composer stage (a browser each) beside the calls: nothing here broadcasts.
          COMPOSER_SPARES: '0',
        },
        stdio: ['ignore', openSync(join(dataDir, 'server.log'), 'a'), openSync(join(dataDir, 'server.log'), 'a')],
      });
      ports.push(port);
      servers.push(server);
      await waitFor(`http://127.0.0.1:${port}/readyz`);
      if (server.exitCode !== null) throw new Error(`the server process for port ${port} exited at start`);
    }

    const folder = mkdtempSync(join(tmpdir(), 'meetcast-nginx-'));
    const listen = await freePort();
    writeFileSync(join(folder, 'nginx.conf'), nginxConfig(folder, listen, ports));
    nginx = spawn('nginx', ['-p', folder, '-c', join(folder, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${listen}`;
    await waitFor(`${url}/healthz`, 20_000);

    // Which cookie reaches which process: try values until each process has one.
    const cookieFor: string[] = [];
    for (let value = 0; value < 200 && cookieFor.filter(Boolean).length < 2; value++) {
      const answer = await fetch(`${url}/healthz`, { headers: { cookie: `backend=b${value}` } });
      const upstream = answer.headers.get('x-upstream') ?? '';
      const index = ports.findIndex((port) => upstream.endsWith(`:${port}`));
      if (index >= 0 && !cookieFor[index]) cookieFor[index] = `b${value}`;
    }
    if (!cookieFor[0] || !cookieFor[1]) throw new Error('nginx did not spread cookies over both processes');

    return {
      url,
      cookieFor: [cookieFor[0], cookieFor[1]],
      servers,
      logs: () =>
        [...dataDirs.map((dir) => join(dir, 'server.log')), join(folder, 'error.log')]
          .map((file) => `== ${file}\n${readIfThere(file).slice(-20_000)}`)
          .join('\n'),
      stop,
    };
  }
}
