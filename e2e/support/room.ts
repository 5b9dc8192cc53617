import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { useSessionCookie } from '../fixtures';
import type { Account } from './api';
import { APP_URL, HOOK_URL } from './ports';

export interface MeetingRow {
  id: number;
  slug: string;
  name: string;
}

/** A meeting put into the test server's database through its loopback test hook. */
export async function createMeeting(
  host: Account,
  options: { isPrivate?: 1 | 2; password?: string; isSchedule?: 0 | 1 } = {},
): Promise<MeetingRow> {
  const response = await fetch(`${HOOK_URL}/meeting`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hostId: host.user.id, ...options }),
  });
  if (!response.ok) throw new Error(`meeting not created: ${response.status}`);
  return (await response.json()) as MeetingRow;
}

export async function killJanus() {
  const response = await fetch(`${HOOK_URL}/kill-janus`, { method: 'POST' });
  if (!response.ok) throw new Error(`janus not killed: ${response.status}`);
}

export interface Participant {
  context: BrowserContext;
  page: Page;
}

/** A participant in their own browser context: opens the room, passes the pre-join screen. */
export async function joinRoom(
  browser: Browser,
  slug: string,
  who: {
    account?: Account;
    name?: string;
    password?: string;
    query?: string;
    /** Runs on the fresh context before the room opens (init scripts, for instance). */
    prepare?: (context: BrowserContext) => Promise<void>;
    /** Where this browser reaches the server when not on the loopback (a network namespace's). */
    origin?: string;
  },
): Promise<Participant> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  if (who.account) await useSessionCookie(context, who.account.token);
  await who.prepare?.(context);
  if (process.env.ROOM_DEBUG) {
    await context.addInitScript(() => {
      window.localStorage.setItem('meetcast.debug', '1');
      for (const name of ['online', 'offline']) window.addEventListener(name, () => console.debug(`[page] ${name}`));
    });
  }
  const page = await context.newPage();
  if (process.env.ROOM_DEBUG) {
    const label = who.account?.username ?? who.name ?? 'guest';
    const at = () => new Date().toISOString().slice(11, 23);
    page.on('console', (message) => console.log(`${at()} [${label}] ${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => console.log(`${at()} [${label}] pageerror: ${error.message}`));
    page.on('websocket', (socket) => {
      const path = new URL(socket.url()).pathname;
      console.log(`${at()} [${label}] websocket open ${path}`);
      socket.on('close', () => console.log(`${at()} [${label}] websocket closed ${path}`));
      socket.on('socketerror', (error) => console.log(`${at()} [${label}] websocket error ${path}: ${error}`));
    });
  }
  await page.goto(`${who.origin ?? APP_URL}/room/${slug}${who.query ?? ''}`);
  await expect(page.getByRole('button', { name: 'Join meeting' })).toBeVisible({ timeout: 60_000 });
  if (!who.account) await page.getByLabel('Your name').fill(who.name ?? 'Guest');
  if (who.password !== undefined) await page.getByLabel('Meeting password').fill(who.password);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  return { context, page };
}

export async function inCall(participant: Participant) {
  await expect(participant.page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible({ timeout: 45_000 });
}

type Inbound = { participantId: string; framesDecoded: number; packetsLost: number; packetsReceived: number };

/** The room page exposes its inbound video statistics (getStats of the subscriber connection) for tests. */
export function inbound(page: Page): Promise<Inbound[]> {
  return page.evaluate(async () => {
    const room = (window as unknown as { __meetcastRoom?: { inboundVideo(): Promise<Inbound[]> } }).__meetcastRoom;
    return (await room?.inboundVideo()) ?? [];
  });
}

/** Waits until this page decodes video from `count` other participants. */
export async function expectDecodingFrom(page: Page, count: number, timeout = 60_000) {
  await expect
    .poll(
      async () => new Set((await inbound(page)).filter((s) => s.framesDecoded > 0).map((s) => s.participantId)).size,
      {
        timeout,
        intervals: [250, 500, 1000],
      },
    )
    .toBeGreaterThanOrEqual(count);
}

/** Video keeps flowing: the decoded frame count grows. */
export async function expectFramesGrowing(page: Page, timeout = 30_000) {
  const total = async () => (await inbound(page)).reduce((sum, s) => sum + s.framesDecoded, 0);
  const before = await total();
  await expect.poll(total, { timeout, intervals: [500, 1000] }).toBeGreaterThan(before + 10);
}

export async function leave(...participants: Participant[]) {
  await Promise.all(participants.map((p) => p.context.close().catch(() => undefined)));
}
