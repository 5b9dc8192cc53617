import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, type Page } from '@playwright/test';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { E2E_PORTS, HOOK_URL } from './ports';

export { RtmpReceiver };

export interface FakePlatformsState {
  youtube: {
    broadcasts: { id: string; title: string; lifeCycleStatus: string; boundStreamId?: string }[];
    streams: { id: string; streamName: string }[];
    inserted: number;
  };
  twitch: { channels: { broadcaster_id: string; title: string }[]; streamKey: string };
}

/** What the stand-ins of YouTube and Twitch (run by app-server.ts) were asked to do. */
export async function fakePlatforms(): Promise<FakePlatformsState> {
  const response = await fetch(`${HOOK_URL}/fake-platforms`);
  return (await response.json()) as FakePlatformsState;
}

/** The three receivers of the streaming tests, on the ports the stand-ins push to. */
export function startReceivers(folder: string) {
  return {
    youtube: new RtmpReceiver(E2E_PORTS.youtubeIngest, 'live2/stream', `${folder}/youtube`).start(),
    twitch: new RtmpReceiver(E2E_PORTS.twitchIngest, 'app/stream', `${folder}/twitch`).start(),
    custom: new RtmpReceiver(E2E_PORTS.customIngest, 'live/e2e-custom-key', `${folder}/custom`).start(),
  };
}

/** Codec, size and frame rate of what a receiver wrote, read by ffprobe. */
export function probe(file: string) {
  const text = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height,avg_frame_rate'],
    ...['-of', 'json', file],
  ]).toString();
  const streams = (JSON.parse(text) as { streams: Record<string, string | number>[] }).streams;
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const [num, den] = String(video?.avg_frame_rate ?? '0/1')
    .split('/')
    .map(Number);
  return {
    video: video?.codec_name,
    width: video?.width,
    height: video?.height,
    fps: den ? (num ?? 0) / den : 0,
    audio: audio?.codec_name,
  };
}

/** Length in seconds of a media file. */
export function probeDuration(file: string) {
  const text = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(text.toString().trim());
}

/** Connects YouTube or Twitch through /connect-stream and the platform's consent page. */
export async function connectPlatform(
  page: Page,
  platform: 'YouTube' | 'Twitch',
  decision: 'Allow' | 'Deny' = 'Allow',
) {
  await page.goto('/connect-stream');
  await page.getByRole('button', { name: `Connect ${platform}` }).click();
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(/\/connect-stream/);
}

export async function addRtmpDestination(page: Page, name: string, url: string, key: string) {
  await page.goto('/connect-stream');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Server address').fill(url);
  await page.getByLabel('Stream key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Save destination' }).click();
  await expect(page.getByText(`${name} saved.`)).toBeVisible();
}

/** An RTMP address put straight into the database, past the checks of saving, as one saved before them. */
export async function storeRtmpConnectionUnchecked(userId: number, name: string, url: string) {
  const response = await fetch(`${HOOK_URL}/rtmp-connection`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId, name, url, streamKey: 'stored-before-the-check' }),
  });
  if (!response.ok) throw new Error(`connection not stored: ${response.status}`);
}

/** A TCP port on a loopback address that counts who connects to it. */
export async function countingListener(host: string) {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A viewer writes in a platform's chat, at the stand-in (ADR 040). */
export async function sayOnPlatform(platform: 'youtube' | 'twitch', author: string, text: string) {
  const response = await fetch(`${HOOK_URL}/platform-chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, author, text }),
  });
  if (!response.ok) throw new Error(`the stand-in did not take the message: ${response.status}`);
}
