import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { navigateInApp, PAGE_PATHS_SIGNED_IN, PAGE_PATHS_SIGNED_OUT } from './support/shell-pages';

/**
 * Every page, as the browser built it, passes the Nu HTML checker (vnu-jar, on this
 * machine's Java). Style elements that libraries inject at run time (toasts, the calendar) are left
 * out: they are not in the markup the app writes.
 */
// vnu-jar ships the checker as a jar (run with this machine's Java, scripts/system-packages.sh).
const VNU_JAR = join(process.cwd(), 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  extract?: string;
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('#boot-loader')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

/** The page as the browser built it, without the style elements added at run time. */
async function renderedHtml(page: Page, builtStyles: string[]) {
  return page.evaluate((kept) => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    for (const style of Array.from(copy.querySelectorAll('style'))) {
      if (!kept.includes(style.textContent ?? '')) style.remove();
    }
    return `<!DOCTYPE html>\n${copy.outerHTML}`;
  }, builtStyles);
}

/** Runs the checker once over every page; answers its errors and warnings by page name. */
async function nuProblems(pages: [string, string][]): Promise<Record<string, string[]>> {
  const dir = await mkdtemp(join(tmpdir(), 'meetcast-vnu-'));
  try {
    const files = new Map<string, string>();
    for (const [index, [name, html]] of pages.entries()) {
      const file = join(dir, `${index}.html`);
      await writeFile(file, html);
      files.set(`file:${file}`, name);
    }
    const { stderr } = await promisify(execFile)('java', ['-jar', VNU_JAR, '--format', 'json', ...files.keys()], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }));
    const report = JSON.parse(stderr) as { messages: VnuMessage[] };
    const problems: Record<string, string[]> = {};
    for (const message of report.messages) {
      if (message.type === 'info' && message.subType !== 'warning') continue;
      const name = files.get(message.url) ?? message.url;
      (problems[name] ??= []).push(`${message.type}: ${message.message} [${message.extract ?? ''}]`);
    }
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The styles the build writes into index.html: checked; the ones libraries add at run time are not. */
async function builtStylesOf(page: Page) {
  const served = await (await page.request.get('/login')).text();
  return [...served.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
}

test('every page passes the Nu HTML checker', async ({ page, adminSession }) => {
  test.setTimeout(600_000);
  const builtStyles = await builtStylesOf(page);
  const pages: [string, string][] = [];
  // The first page of each session is loaded, the others are reached inside the app, as its links do.
  for (const [index, path] of PAGE_PATHS_SIGNED_OUT.entries()) {
    if (index === 0) await open(page, path);
    else await navigateInApp(page, path, { settle: true });
    pages.push([`signed out ${path}`, await renderedHtml(page, builtStyles)]);
  }
  await adminSession(page);
  for (const [index, path] of PAGE_PATHS_SIGNED_IN.entries()) {
    if (index === 0) await open(page, path);
    else await navigateInApp(page, path, { settle: true });
    pages.push([`signed in ${path}`, await renderedHtml(page, builtStyles)]);
  }
  expect(await nuProblems(pages)).toEqual({});
});

test('the room page, before and during a call, has one main and passes the checker', async ({
  browser,
  page,
  signUp,
}) => {
  test.setTimeout(180_000);
  const host = await signUp({ username: 'Hilde Host' });
  const meeting = await createMeeting(host);
  const builtStyles = await builtStylesOf(page);
  const guest = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const preJoin = await guest.newPage();
  await preJoin.goto(`/room/${meeting.slug}`);
  await expect(preJoin.getByRole('button', { name: 'Join meeting' })).toBeVisible({ timeout: 60_000 });
  const pages: [string, string][] = [['pre-join', await renderedHtml(preJoin, builtStyles)]];
  await guest.close();

  const hilde = await joinRoom(browser, meeting.slug, { account: host });
  try {
    await inCall(hilde);
    expect(await hilde.page.locator('main main').count()).toBe(0);
    expect(await hilde.page.locator('main').count()).toBe(1);
    pages.push(['in the call', await renderedHtml(hilde.page, builtStyles)]);
    expect(await nuProblems(pages)).toEqual({});
  } finally {
    await leave(hilde);
  }
});
