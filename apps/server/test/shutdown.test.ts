import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { freePort } from '../src/media/managed-janus.js';

describe('shutdown', () => {
  it('closes connected clients and exits within 5 s of SIGTERM; so that clients reconnect elsewhere', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-stop-')),
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    let hasExited = false;
    const exited = new Promise<number | null>((resolve) =>
      server.once('exit', (code) => {
        hasExited = true;
        resolve(code);
      }),
    );
    const baseUrl = `http://127.0.0.1:${port}`;
    // A failed or timed-out test stops it the way it is meant to stop: its Janus and composer stage go with it.
    onTestFinished(() => {
      if (!hasExited) server.kill('SIGTERM');
    });
    await waitForStart();
    async function waitForStart() {
      // A start (tsx, migrations, Janus, the composer's spare stage) can take tens of seconds on two busy cores.
      const deadline = Date.now() + 60_000;
      for (;;) {
        if ((await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok) break;
        if (hasExited) throw new Error(`server exited during its start with ${String(await exited)}`);
        if (Date.now() > deadline) throw new Error('server did not start within 60 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // A browser tab's realtime connection (Engine.IO under Socket.IO) and an idle keep-alive connection.
    const realtime = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    await new Promise((resolve, reject) => {
      realtime.once('message', resolve);
      realtime.once('error', reject);
    });
    const closed = new Promise<void>((resolve) => realtime.once('close', () => resolve()));
    await fetch(`${baseUrl}/healthz`);

    const started = Date.now();
    server.kill('SIGTERM');
    await closed;
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 90_000);
});
