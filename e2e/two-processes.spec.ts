import type { Browser } from '@playwright/test';
import { expect, readCode, test } from './fixtures';
import { uniqueEmail } from './support/api';
import { startInstallation, type Installation } from './support/installation';
import { expectDecodingFrom, expectFramesGrowing, inCall, type Participant } from './support/room';

async function post<T>(installation: Installation, call: string, fields: Record<string, string>) {
  const response = await fetch(`${installation.url}/api/${call}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
  });
  return (await response.json()) as { status: string; message: string; data?: T };
}

/** A guest in the room, whose browser nginx sends to one process by its cookie. */
async function joinThrough(browser: Browser, installation: Installation, slug: string, name: string, backend: string) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const host = new URL(installation.url).hostname;
  await context.addCookies([{ name: 'backend', value: backend, domain: host, path: '/' }]);
  const page = await context.newPage();
  await page.goto(`${installation.url}/room/${slug}`);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  return { context, page } satisfies Participant;
}

// Two processes, one PostgreSQL, one Redis, each with its own managed Janus, behind nginx.
test.describe('two server processes as one installation', () => {
  // A killed process's Janus dies with it: both participants rejoin and their room is placed again on
  // the other Janus (about 40 s at a load of 30 on two cores, 2026-12-03), before a third one joins.
  test.describe.configure({ timeout: 300_000 });
  let installation: Installation;
  test.beforeAll(async () => {
    // Two servers started from source one after the other, each with its Janus and migrations, while
    // the other worker's tests run: over a minute on a busy two-core machine (2026-12-01).
    test.setTimeout(180_000);
    installation = await startInstallation();
  });
  test.afterEach(async () => {
    const testInfo = test.info();
    if (testInfo.status !== testInfo.expectedStatus && installation) {
      await testInfo.attach('server and nginx logs', { body: installation.logs(), contentType: 'text/plain' });
    }
  });
  test.afterAll(async () => {
    await installation?.stop();
  });

  test('a meeting split across the processes has video both ways, and survives one process killed', async ({
    browser,
  }) => {
    const email = uniqueEmail('scale-host');
    await post(installation, 'signup.php', { username: 'Scale Host', email, password: 'scale host password' });
    const confirmed = await post<{ token: string }>(installation, 'confirm-signup.php', {
      email,
      code: await readCode(email),
    });
    const token = confirmed.data!.token;
    const made = await post<{ url_slug: string }>(installation, 'add-instant-meeting.php', {
      token,
      name: 'Split meeting',
      slug: `split-${Date.now()}`,
    });
    const slug = made.data!.url_slug;

    const ann = await joinThrough(browser, installation, slug, 'Ann on one', installation.cookieFor[0]);
    const ben = await joinThrough(browser, installation, slug, 'Ben on two', installation.cookieFor[1]);
    await Promise.all([inCall(ann), inCall(ben)]);
    await expectDecodingFrom(ann.page, 1, 90_000);
    await expectDecodingFrom(ben.page, 1, 90_000);
    // They really came through different processes.
    const upstreamOf = (participant: Participant) =>
      participant.page.evaluate(async () => (await fetch('/healthz')).headers.get('x-upstream'));
    expect(await upstreamOf(ann)).not.toBe(await upstreamOf(ben));

    // The process Ann came through dies outright, and its Janus with it: nginx sends her to the other,
    // the call goes on.
    installation.servers[0]!.kill('SIGKILL');
    // Her realtime connection comes back through the other process: her chat reaches Ben.
    await ann.page.keyboard.press('c');
    await ben.page.getByRole('button', { name: 'Chat' }).click();
    const benChat = ben.page.getByRole('region', { name: 'Chat' });
    let attempt = 0;
    await expect(async () => {
      const text = `still here ${++attempt}`;
      await ann.page.getByLabel('Message').fill(text);
      await ann.page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(benChat.getByText(text)).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 120_000 });
    await expectFramesGrowing(ann.page, 60_000);
    await expectFramesGrowing(ben.page, 60_000);
    // Someone joining now (through the surviving process) sees both.
    const cat = await joinThrough(browser, installation, slug, 'Cat after', installation.cookieFor[1]);
    await inCall(cat);
    await expectDecodingFrom(cat.page, 2, 90_000);
    await Promise.all([ann.context.close(), ben.context.close(), cat.context.close()]);
  });
});
