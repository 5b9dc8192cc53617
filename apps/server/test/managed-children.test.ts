import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meetings, users } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../src/media/managed-janus.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

interface Running {
  pid: number;
  command: string;
}

/** A process as /proc shows it: undefined once it is gone (a zombie has ended: it only waits to be reaped). */
function processInfo(pid: number): { parent: number; command: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: the fields after its closing one are plain.
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { parent: Number(parent), command };
  } catch {
    return undefined;
  }
}

/** Every living process below `root`. */
function descendants(root: number): Running[] {
  const children = new Map<number, Running[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = processInfo(Number(entry));
    if (!info) continue;
    const siblings = children.get(info.parent) ?? [];
    siblings.push({ pid: Number(entry), command: info.command });
    children.set(info.parent, siblings);
  }
  const found: Running[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

const programOf = (running: Running) => running.command.split(' ')[0]!.split('/').pop()!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The managed children this test waits for: Janus, and the composer's spare stage. */
const EXPECTED = ['janus', 'Xvfb', 'pulseaudio', 'chromium'];

describe('managed children', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });
  afterAll(() => database?.drop());

  it('die with a server process that is killed outright (SIGKILL)', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'meetcast-children-')),
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
        // The composer's spare stage (Xvfb, PulseAudio, Chromium), as on a real start.
        COMPOSER_WORKER: 'local',
        COMPOSER_SPARES: '1',
      },
      stdio: 'ignore',
    });
    const serverPid = server.pid!;
    let hasExited = false;
    server.once('exit', () => (hasExited = true));
    const seen: Running[] = [];
    onTestFinished(() => {
      if (!hasExited) server.kill('SIGKILL');
      // Whatever this test saw and still lives must not burden the suites after it.
      for (const running of seen) if (processInfo(running.pid)) process.kill(running.pid, 'SIGKILL');
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (!(await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok) {
      if (hasExited) throw new Error('server exited during its start');
      if (Date.now() > deadline) throw new Error('server did not start within 60 s');
      await sleep(100);
    }

    // Someone joins a meeting: the server starts its managed Janus for the room.
    const { db } = database.handle;
    const [host] = await db
      .insert(users)
      .values({ username: 'Killed Host', email: `killed.${process.pid}.${Date.now()}@example.com` })
      .returning();
    const slug = `killed-${randomBytes(5).toString('hex')}`;
    await db.insert(meetings).values({
      hostId: host!.id,
      name: 'Killed meeting',
      slug,
      isSchedule: 1,
      isPrivate: 2,
      isPassword: 2,
      startTime: new Date(),
      endTime: new Date(Date.now() + 3600_000),
      repeat: 0,
      state: 'scheduled',
    });
    const joined = await fetch(`${baseUrl}/api/join-room.php`, {
      method: 'POST',
      body: new URLSearchParams({ meetId: slug, display_name: 'Guest' }),
    });
    expect(joined.status).toBe(200);

    // Wait until every expected child runs (a spare stage takes seconds on two busy cores).
    while (!EXPECTED.every((program) => descendants(serverPid).some((running) => programOf(running) === program))) {
      if (Date.now() > deadline) {
        throw new Error(`not all children started: ${descendants(serverPid).map(programOf).join(', ')}`);
      }
      await sleep(200);
    }
    seen.push(...descendants(serverPid));

    server.kill('SIGKILL');
    const killed = Date.now();
    let alive = seen.filter((running) => processInfo(running.pid));
    while (alive.length > 0 && Date.now() - killed < 5000) {
      await sleep(100);
      alive = seen.filter((running) => processInfo(running.pid));
    }
    expect(alive.map((running) => running.command.slice(0, 80))).toEqual([]);
  }, 120_000);
});
