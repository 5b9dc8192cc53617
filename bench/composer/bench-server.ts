/**
 * What the broadcast benches share (bench/composer.ts, bench/channel-player.ts): the bench server
 * (bench/servers/composer.ts) in its own process, its API as the host, and fake participants in
 * the meeting's room, the first of them with the painted clock as its camera.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import type { Browser, Page } from '@playwright/test';
import { BEEPING_MICROPHONE_SCRIPT, CLOCK_CAMERA_SCRIPT } from './timestamp-code.js';

export interface ServerInfo {
  url: string;
  slug: string;
  token: string;
  serverPid: number;
  janusPid: number | undefined;
  dataDir: string;
}

/** A composer log line (pino JSON, `"msg":"composer…`) with the time it was written. */
export interface ComposerLogLine {
  at: number;
  msg: string;
}

/**
 * Starts the bench server; `onComposerLog` hears the composer's step timings from its log. With
 * `everyCore` it may run on every core even when the bench itself was pinned to one.
 */
export async function startComposerServer(
  onComposerLog: (line: ComposerLogLine) => void = () => undefined,
  { everyCore = false } = {},
): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const script = new URL('../servers/composer.ts', import.meta.url).pathname;
  const pinning = everyCore ? ['taskset', '--cpu-list', `0-${cpus().length - 1}`] : [];
  const [program, ...args] = [...pinning, process.execPath, '--import', 'tsx', script];
  const child = spawn(program!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('BENCH ')) resolve({ child, info: JSON.parse(line.slice(6)) as ServerInfo });
      else if (line.includes('"msg":"composer')) {
        const { msg, time, destinationId } = JSON.parse(line) as { msg: string; time: number; destinationId?: number };
        onComposerLog({ at: time, msg: destinationId === undefined ? msg : `${msg} [destination ${destinationId}]` });
      }
    });
    child.once('exit', () => reject(new Error('the composer bench server exited before it listened')));
  });
}

/** Ends the bench server (it removes its data folder itself). */
export async function stopComposerServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One API call as the bench's host (or signed out with `token: ''`): the answer's `data.data`. */
export async function api<T>(info: ServerInfo, name: string, fields: Record<string, string | number>): Promise<T> {
  const form = new URLSearchParams(info.token ? { token: info.token } : {});
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  const response = await fetch(`${info.url}/api/${name}`, { method: 'POST', body: form });
  const body = (await response.json()) as { message: string; data?: { data: T } };
  if (!response.ok) throw new Error(`${name}: ${response.status} ${body.message}`);
  return body.data!.data;
}

/** `count` participants join the meeting's room, their microphones beeping; the first one's camera is the painted clock. */
export async function joinParticipants(browser: Browser, info: ServerInfo, count: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    await context.addInitScript({ content: BEEPING_MICROPHONE_SCRIPT });
    if (i === 0) await context.addInitScript({ content: CLOCK_CAMERA_SCRIPT });
    const page = await context.newPage();
    await page.goto(`${info.url}/room/${info.slug}`);
    await page.getByLabel('Your name').fill(i === 0 ? 'Clock' : `Participant ${i + 1}`);
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await page.getByRole('toolbar', { name: 'Meeting controls' }).waitFor({ timeout: 60_000 });
    pages.push(page);
  }
  return pages;
}
