import { streamingCalls } from '@meetcast/contracts';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiPost } from './support/api';
import { APP_URL } from './support/ports';
import { createMeeting, inCall, joinRoom, leave } from './support/room';

/**
 * The video's picture keeps coming: 16:9 and at least 540 rows (720p, or the 540p a busy machine's
 * composer steps down to on purpose, capacity.ts), and its clock advances. Returns the rows.
 */
async function expectPlaying(video: Locator) {
  const size = () =>
    video.evaluate((element: HTMLVideoElement) => ({ width: element.videoWidth, height: element.videoHeight }));
  await expect.poll(async () => (await size()).height, { timeout: 60_000 }).toBeGreaterThanOrEqual(540);
  const { width, height } = await size();
  expect(height).toBeLessThanOrEqual(720);
  expect(width / height).toBeCloseTo(16 / 9, 2);
  const before = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(before + 1);
  return height;
}

// Real composer, real Janus Streaming mountpoint, real ffmpeg HLS; viewers signed out.
test.describe('channel player', () => {
  test.describe.configure({ timeout: 300_000 });

  test(
    'a signed-out viewer watches live over WebRTC, another without RTCPeerConnection over HLS; after the stop the replay plays and seeks',
    { tag: '@composer' },
    async ({ browser, signUp }) => {
      const host = await signUp({ username: 'Petra Player' });
      const meeting = await createMeeting(host);
      const petra = await joinRoom(browser, meeting.slug, { account: host });
      const viewerContext = await browser.newContext();
      const hlsContext = await browser.newContext();
      const lateContext = await browser.newContext();
      try {
        await inCall(petra);
        const started = await apiPost(streamingCalls.startBroadcast, {
          token: host.token,
          meetId: meeting.slug,
          destinations: '[]',
          record: 1,
        });
        expect(started.httpStatus).toBe(200);

        // Opened before the broadcast is live: the page follows it without a reload.
        const viewer = await viewerContext.newPage();
        await viewer.goto(`${APP_URL}/channel/${meeting.slug}`);
        const openedAt = Date.now();
        await expect(viewer.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 90_000 });
        const rows = await expectPlaying(viewer.getByTestId('live-video'));
        console.log(`channel page → WebRTC picture at ${rows}p: ${Date.now() - openedAt} ms (includes going live)`);
        await expect(viewer.getByTestId('viewer-count')).toContainText('1', { timeout: 15_000 });
        await expect(viewer.getByTestId('player-mode')).toContainText('Low-latency mode');
        // The player names the picture it gets, whichever quality the composer could afford.
        await expect(viewer.getByTestId('player-mode')).toContainText(`${rows}p`);

        // The controls: pause, then back to live; sound on.
        const player = viewer.getByRole('region', { name: /Live broadcast/ });
        await player.getByRole('button', { name: 'Pause' }).click();
        await expect(player.getByRole('button', { name: 'Play' })).toBeVisible();
        await player.getByRole('button', { name: 'Back to live' }).click();
        await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
        await player.getByRole('button', { name: 'Mute', exact: true }).click();
        await expect(player.getByRole('button', { name: 'Mute', exact: true })).toHaveAttribute(
          'aria-pressed',
          'false',
        );

        // No RTCPeerConnection at all: the HLS fallback plays the same broadcast.
        await hlsContext.addInitScript(() => {
          Object.defineProperty(window, 'RTCPeerConnection', { value: undefined, configurable: true });
          Object.defineProperty(window, 'webkitRTCPeerConnection', { value: undefined, configurable: true });
        });
        const hlsViewer = await hlsContext.newPage();
        const hlsOpenedAt = Date.now();
        await hlsViewer.goto(`${APP_URL}/channel/${meeting.slug}`);
        await expect(hlsViewer.getByTestId('player-mode')).toHaveAttribute('data-mode', 'hls', { timeout: 60_000 });
        const hlsRows = await expectPlaying(hlsViewer.getByTestId('live-video'));
        console.log(`channel page → HLS picture at ${hlsRows}p: ${Date.now() - hlsOpenedAt} ms`);
        await expect(hlsViewer.getByTestId('player-mode')).toContainText('Compatibility mode');

        // Opened while live: the page's HTML starts the watch (the early watch), shows the picture in
        // the loader while the app loads, and the player takes that very connection and element over.
        await lateContext.addInitScript(() => {
          new MutationObserver(() => {
            if (document.querySelector('#boot-loader video[data-testid="live-video"]')) {
              (window as unknown as { shownInLoader: boolean }).shownInLoader = true;
            }
          }).observe(document, { childList: true, subtree: true });
        });
        const lateViewer = await lateContext.newPage();
        const watches: string[] = [];
        lateViewer.on('websocket', (socket) => {
          if (socket.url().includes('/janus-watch')) watches.push(socket.url());
        });
        await lateViewer.goto(`${APP_URL}/channel/${meeting.slug}`);
        await expect(lateViewer.getByTestId('player-mode')).toHaveAttribute('data-mode', 'webrtc', { timeout: 30_000 });
        const latePlayer = lateViewer.getByRole('region', { name: /Live broadcast/ });
        await expectPlaying(latePlayer.getByTestId('live-video'));
        expect(await lateViewer.evaluate(() => (window as unknown as { shownInLoader?: boolean }).shownInLoader)).toBe(
          true,
        );
        await expect(lateViewer.getByTestId('live-video')).toHaveCount(1);
        expect(watches).toHaveLength(1);

        const playlist = await hlsViewer.evaluate(async (slug) => {
          const body = new URLSearchParams({ meetId: slug });
          const answer = (await (await fetch('/api/get-broadcast-viewer.php', { method: 'POST', body })).json()) as {
            data: { data: { hls_url: string } };
          };
          return answer.data.data.hls_url;
        }, meeting.slug);

        // Stop: both pages turn to the recording by themselves; it plays and seeks.
        const stopped = await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        expect(stopped.httpStatus).toBe(200);
        const replay = viewer.getByTestId('replay-video');
        await expect(replay).toBeVisible({ timeout: 90_000 });
        await expect(hlsViewer.getByTestId('replay-video')).toBeVisible({ timeout: 30_000 });
        expect((await fetch(`${APP_URL}${playlist}`)).status).toBe(404);
        const duration = await replay.evaluate(
          (element: HTMLVideoElement) =>
            new Promise<number>((resolve) => {
              if (element.readyState >= 1) resolve(element.duration);
              else element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true });
            }),
        );
        expect(duration).toBeGreaterThan(5);
        const seekedTo = await replay.evaluate(
          (element: HTMLVideoElement, target) =>
            new Promise<number>((resolve) => {
              element.muted = true;
              element.addEventListener('seeked', () => resolve(element.currentTime), { once: true });
              element.currentTime = target;
            }),
          duration / 2,
        );
        expect(Math.abs(seekedTo - duration / 2)).toBeLessThan(2.5);
        await replay.evaluate((element: HTMLVideoElement) => element.play());
        await expect
          .poll(() => replay.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
          .toBeGreaterThan(seekedTo + 0.5);
      } finally {
        await apiPost(streamingCalls.stopBroadcast, { token: host.token, meetId: meeting.slug });
        await viewerContext.close();
        await hlsContext.close();
        await lateContext.close();
        await leave(petra);
      }
    },
  );
});
