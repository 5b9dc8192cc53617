import { streamingCalls } from '@meetcast/contracts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { chromium } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { E2E_PORTS } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';
import { latestPts, stopBroadcastSurely } from './support/received-frames';
import { RtmpReceiver } from './support/streaming';

const W = 1280;
const H = 720;
/** Each microphone hears its own tone, swelling and fading (a steady one is what noise suppression removes). */
const HOST_HZ = 440;
const BACKSTAGE_HZ = 1500;

const folder = mkdtempSync(join(tmpdir(), 'meetcast-backstage-'));
function toneFile(hz: number) {
  const file = join(folder, `tone-${hz}.wav`);
  execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `aevalsrc=0.5*sin(2*PI*${hz}*t)*(0.6-0.4*cos(2*PI*1.25*t)):s=48000:d=120`],
    ...['-ac', '1', file],
  ]);
  return file;
}
const launchWithTone = (hz: number) => ({
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${toneFile(hz)}`],
});
test.use({ launchOptions: launchWithTone(HOST_HZ) });

/**
 * One frame the receiver got, at `at` seconds, as full-size luminance. Decoding starts 1.2 s before
 * (a keyframe every second): a frame decoded from mid-GOP would be grey garbage.
 */
function grayFrame(file: string, at: number) {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-v', 'quiet', '-ss', String(Math.max(0, at - 1.2)), '-i', file, '-copyts'],
      // Scaled: a busy machine's composer may step down to 540p (capacity.ts), a new file on the receiver.
      ...[
        '-vf',
        `select=gte(t\\,${at}),scale=${W}:${H}`,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        'pipe:1',
      ],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return result.stdout.length >= W * H ? result.stdout : undefined;
}

/** The frame at `at` seconds as a PNG in the test's report. */
async function attachFrame(file: string, at: number, name: string) {
  const path = test.info().outputPath(`${name}.png`);
  execFileSync('ffmpeg', [
    ...['-v', 'quiet', '-y', '-ss', String(Math.max(0, at - 1.2)), '-i', file, '-copyts'],
    ...['-vf', `select=gte(t\\,${at})`, '-frames:v', '1', path],
  ]);
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/**
 * Whether the frame is split down the middle by the page's empty background (two people side by side
 * leave the 8-px gap between their tiles there); one person alone fills it with their picture.
 */
function isSplitInTwo(gray: Buffer) {
  for (let x = W / 2 - 12; x <= W / 2 + 12; x += 1) {
    const values: number[] = [];
    for (let y = 60; y < H - 60; y += 2) values.push(gray[y * W + x]!);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const spread = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
    if (mean < 35 && spread < 10) return true;
  }
  return false;
}

/**
 * Whether the frame's middle is mostly a picture: not the page's empty background (slate-950) nor the
 * plain "Starting soon" card (slate-900) shown until a camera's first frame arrives (ADR 042).
 */
function hasPictureInMiddle(gray: Buffer) {
  let dark = 0;
  let all = 0;
  for (let y = H / 4; y < (3 * H) / 4; y += 4)
    for (let x = W / 4; x < (3 * W) / 4; x += 4) {
      all += 1;
      if (gray[y * W + x]! < 30) dark += 1;
    }
  return dark / all < 0.5;
}

/** The mean level (dB) of the received sound around `hz`, over `seconds` from `from`: two band-passes, then volumedetect. */
function bandLevel(file: string, from: number, seconds: number, hz: number) {
  const filter = `bandpass=f=${hz}:width_type=h:w=120,bandpass=f=${hz}:width_type=h:w=120,volumedetect`;
  const result = spawnSync('ffmpeg', [
    ...['-v', 'info', '-ss', String(from), '-t', String(seconds), '-i', file],
    ...['-vn', '-af', filter, '-f', 'null', '-'],
  ]);
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(result.stderr.toString());
  return match ? (match[1] === '-inf' ? -120 : Number(match[1])) : Number.NaN;
}

/** The receiver's current file once it holds a picture: a step down opens a new one, empty for a moment. */
async function currentFile(receiver: RtmpReceiver) {
  let file = receiver.file;
  const holdsPicture = () => {
    file = receiver.file;
    try {
      return latestPts(file) >= 0;
    } catch {
      return false; // not written yet
    }
  };
  await expect.poll(holdsPicture, { timeout: 30_000 }).toBe(true);
  return file;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ADR 045: a backstage guest is in the meeting but neither drawn nor heard on the stream until the
// host adds them to the stage, as a real RTMP receiver gets it.
test.describe('broadcast backstage', () => {
  // Two browsers, the composer, and decoding on two shared cores.
  test.describe.configure({ timeout: 660_000 });

  test(
    'a guest who came by the backstage link is not on the stream, in picture or sound, until added to the stage',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const receiver = new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-backstage-key', `${folder}/custom`).start();
      const toneBrowser = await chromium.launch(launchWithTone(BACKSTAGE_HZ));
      const host = await signUp({ username: 'Hana Host' });
      const meeting = await createMeeting(host);
      const hostSeat = await joinRoom(browser, meeting.slug, { account: host });
      const guest = await joinRoom(toneBrowser, meeting.slug, { name: 'Bea Backstage', query: '?backstage=1' });
      try {
        await Promise.all([inCall(hostSeat), inCall(guest)]);
        const added = await apiPost(streamingCalls.addRtmpDestination, {
          token: host.token,
          name: 'Backstage receiver',
          url: `rtmp://127.0.0.1:${E2E_PORTS.customIngest}/live`,
          stream_key: 'e2e-backstage-key',
        });
        const connectionId = (added.body.data as { data: { id: number } }).data.id;
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: JSON.stringify([{ connection_id: connectionId }]),
        });
        expect(started.httpStatus).toBe(200);
        await expect.poll(() => receiver.bytes(), { timeout: 60_000 }).toBeGreaterThan(300_000);

        // The guest stays in the meeting and is told where they are.
        const notice = guest.page.getByText('You are backstage — not on the stream.');
        await expect(notice).toBeVisible({ timeout: 30_000 });

        // The host alone, as soon as the host's camera reaches the composer; and for the next 12 s.
        await expect
          .poll(
            () => {
              // The receiver's current file (a step down starts a new one); a second from its end, whose
              // last packet may still be half written.
              const frame = grayFrame(receiver.file, latestPts(receiver.file) - 1);
              return frame ? hasPictureInMiddle(frame) : false;
            },
            { timeout: 90_000, intervals: [2000] },
          )
          .toBe(true);
        let file = await currentFile(receiver);
        const soloFrom = latestPts(file);
        await wait(12_000);
        const soloTo = latestPts(file);
        for (let at = soloFrom; at < soloTo; at += 2) {
          const frame = grayFrame(file, at);
          if (frame) expect(isSplitInTwo(frame), `frame at ${at.toFixed(1)} s split in two`).toBe(false);
        }
        await attachFrame(file, soloTo - 1, 'backstage');
        const seconds = Math.min(8, soloTo - soloFrom - 1);
        const hostWhileBackstage = bandLevel(file, soloTo - seconds, seconds, HOST_HZ);
        const guestWhileBackstage = bandLevel(file, soloTo - seconds, seconds, BACKSTAGE_HZ);

        // The host adds the guest from the studio, with the keyboard.
        await hostSeat.page.getByRole('button', { name: 'Live broadcast (on air)' }).click();
        const row = hostSeat.page.locator('[data-stage-person]').filter({ hasText: 'Bea Backstage' });
        const add = row.getByRole('button', { name: 'Add to stage' });
        await add.focus();
        const before = latestPts(file);
        await hostSeat.page.keyboard.press('Enter');
        await expect(row.getByRole('button', { name: 'Remove from stage' })).toBeVisible({ timeout: 15_000 });
        await expect(notice).toBeHidden({ timeout: 15_000 });

        let splitAt: number | undefined;
        let scanned = before;
        let isNewPush = false;
        await expect
          .poll(
            () => {
              // A step down (capacity.ts, on a busy machine) starts a new push: a new file, whose clock
              // starts at 0. Follow it, from its start.
              if (receiver.file !== file) {
                file = receiver.file;
                scanned = 0;
                isNewPush = true;
              }
              const latest = latestPts(file);
              for (; scanned <= latest - 0.5; scanned += 0.5) {
                const frame = grayFrame(file, scanned);
                if (frame && isSplitInTwo(frame)) {
                  splitAt = scanned;
                  return true;
                }
              }
              return false;
            },
            { timeout: 60_000, intervals: [3000] },
          )
          .toBe(true);
        console.log(
          !isNewPush
            ? `backstage → stage (click → two people on the receiver): ~${Math.round((splitAt! - before) * 1000)} ms`
            : 'backstage → stage: two people on a new push (the composer stepped down meanwhile)',
        );
        await wait(10_000);
        const onStageTo = latestPts(file);
        await attachFrame(file, onStageTo - 1, 'on-stage');
        const hostOnStage = bandLevel(file, onStageTo - 8, 8, HOST_HZ);
        const guestOnStage = bandLevel(file, onStageTo - 8, 8, BACKSTAGE_HZ);
        console.log(
          `received sound, ${HOST_HZ} Hz band (host): ${hostWhileBackstage} dB backstage, ${hostOnStage} dB on stage; ` +
            `${BACKSTAGE_HZ} Hz band (guest): ${guestWhileBackstage} dB backstage, ${guestOnStage} dB on stage`,
        );
        // The host is heard all along; the guest's tone rises from the floor once on stage.
        expect(hostWhileBackstage).toBeGreaterThan(-50);
        expect(guestOnStage).toBeGreaterThan(-50);
        expect(guestOnStage - guestWhileBackstage).toBeGreaterThan(20);
      } finally {
        // A broadcast left live makes the next composer specs fail (503): stop it whatever happened.
        await stopBroadcastSurely(host, meeting.slug);
        await leave(hostSeat, guest);
        await toneBrowser.close();
        await receiver.stop();
      }
    },
  );
});
