import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, useSessionCookie } from './fixtures';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { createMeeting, inCall } from './support/room';

// The microphone hears only steady noise (a fan, traffic): what noise suppression must take away.
const noiseFile = join(mkdtempSync(join(tmpdir(), 'meetcast-noise-')), 'noise.wav');
execFileSync('ffmpeg', [
  ...['-loglevel', 'error', '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.5:duration=30'],
  ...['-ar', '48000', '-ac', '1', noiseFile],
]);
test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${noiseFile}`],
  },
});

/** The microphone meter's mean reading (0–100) over two seconds. */
async function meanLevel(page: Page) {
  const meter = page.getByRole('meter', { name: 'Microphone level' }).first();
  let sum = 0;
  for (let reading = 0; reading < 20; reading++) {
    sum += Number(await meter.getAttribute('aria-valuenow'));
    await page.waitForTimeout(100);
  }
  return sum / 20;
}

test('noise suppression takes steady noise out of the microphone, in the call too, and is remembered', async ({
  browser,
  account,
}) => {
  // Pages, the model and the call on a busy two-core machine.
  test.setTimeout(180_000);
  const meeting = await createMeeting(account);
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  try {
    await useSessionCookie(context, account.token);
    const page = await context.newPage();
    await page.goto(`/room/${meeting.slug}`);
    const noiseSwitch = page.getByRole('checkbox', { name: /Noise suppression/ });
    await expect(noiseSwitch).not.toBeChecked({ timeout: 45_000 });
    // A person's first click on the page: browsers keep its sound processing silent until then.
    await page.getByRole('heading', { level: 1 }).click();
    await expect.poll(() => meanLevel(page), { timeout: 20_000 }).toBeGreaterThan(5);
    const plain = await meanLevel(page);

    await noiseSwitch.check();
    // A third of the plain level at most: 10.2 → 2.0 on a quiet machine, 7.95 → 2.05 in a loaded CI
    // run (the plain level read lower there, the suppressed one the same), which a quarter failed.
    await expect.poll(() => meanLevel(page), { timeout: 20_000 }).toBeLessThan(plain / 3);
    const suppressed = await meanLevel(page);
    console.log(`microphone level on pink noise: ${plain.toFixed(1)} plain, ${suppressed.toFixed(1)} suppressed`);

    // The call sends the suppressor's output (Chromium names a Web Audio track's device "WebAudio-…"),
    // not the microphone's own track.
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await inCall({ context, page });
    await expect
      .poll(() =>
        page.evaluate(() => {
          const pc = (
            window as { __meetcastRoom?: { publisherConnection(): RTCPeerConnection | undefined } }
          ).__meetcastRoom?.publisherConnection();
          const track = pc?.getSenders().find((sender) => sender.track?.kind === 'audio')?.track;
          return track ? (track.getSettings().deviceId ?? '') : 'not sending';
        }),
      )
      .toMatch(/^WebAudio-/);

    // Remembered by this browser for the next meeting.
    const next = await createMeeting(account);
    const nextPage = await context.newPage();
    await nextPage.goto(`/room/${next.slug}`);
    await expect(nextPage.getByRole('checkbox', { name: /Noise suppression/ })).toBeChecked();
  } finally {
    await context.close();
  }
});
