import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts } from '@meetcast/db';
import { startFakeGoogle, type FakeGoogle } from '@meetcast/testkit/fake-google';
import { startFakeTwitch, type FakeTwitch } from '@meetcast/testkit/fake-twitch';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';
import { insertMeeting } from '../room-helpers.js';
import { connected } from '../stream-helpers.js';
import { startTestServer, type SignedIn, type TestServer } from '../test-server.js';
import {
  chromiumOf,
  encoderOf,
  isRunning,
  largestGap,
  leftoversOf,
  mediaDuration,
  stagesOf,
  startLayoutPage,
  treeOf,
  videoTimestamps,
  type StageOnDisk,
} from './composer-processes.js';

type BroadcastAnswer = { data: LiveBroadcast | null };
type Platform = 'youtube' | 'twitch' | 'rtmp';

/** How long the receiver stays away, and how soon after its return it must be live again. */
const OUTAGE_MS = 90_000;
const BACK_LIVE_WITHIN_MS = 35_000;
/** Between two video packets at 24-30 fps: more than this is a frame lost (or a hole). */
const FRAME_GAP_S = 0.1;
/** An encoder that ran this long is not in a crash loop (broadcast-encode.ts: 10 s of media), plus its start. */
const STABLE_ENCODER_MS = 14_000;

/**
 * The faults of a live show, with the real composer (Xvfb, PulseAudio, Chromium, the
 * encode), three destinations (the YouTube and Twitch stand-ins and an RTMP address, each with a
 * real RTMP receiver) and a recording: a receiver away for 90 s, the composer's browser killed, the
 * encoder killed. After each: what the API says is what the receivers get, and nothing is orphaned.
 * About 3.5 minutes, most of it the 90-s outage the issue asks for.
 */
describe('chaos while live (real composer)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-chaos-'));
  const layoutOpened = { count: 0 };
  let layoutPage: Server;
  let google: FakeGoogle;
  let twitch: FakeTwitch;
  let server: TestServer;
  let host: SignedIn;
  let slug: string;
  let stage: StageOnDisk;
  const receivers = {} as Record<Platform, RtmpReceiver>;
  const connectionOf = {} as Record<Platform, number>;

  const broadcastOf = async () =>
    (await server.post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: slug })).body.data!.data!;
  const stateOf = async (platform: Platform) =>
    (await broadcastOf()).destinations.find((entry) => entry.connection_id === connectionOf[platform])?.state;

  /** Bytes keep arriving at a receiver (over 3 s). */
  const receiving = async (receiver: RtmpReceiver) => {
    const before = receiver.bytes();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return receiver.bytes() > before;
  };

  /** The API says live, and every receiver it calls live is getting media. */
  async function expectApiMatchesReceivers(live: Platform[]) {
    await waitFor(async () => (await broadcastOf()).state === 'live', 60_000, 'the broadcast live in the API');
    for (const platform of live) {
      await waitFor(async () => (await stateOf(platform)) === 'live', 60_000, `${platform} live in the API`);
      expect(await receiving(receivers[platform]), `${platform} receiving`).toBe(true);
    }
  }

  beforeAll(async () => {
    layoutPage = await startLayoutPage({ opened: layoutOpened });
    const [youtubePort, twitchPort, rtmpPort] = [await freePort(), await freePort(), await freePort()];
    receivers.youtube = new RtmpReceiver(youtubePort, 'live2/stream', join(folder, 'youtube')).start();
    receivers.twitch = new RtmpReceiver(twitchPort, 'app/stream', join(folder, 'twitch')).start();
    receivers.rtmp = new RtmpReceiver(rtmpPort, 'live/chaos-key', join(folder, 'rtmp')).start();
    google = await startFakeGoogle({ ingestBase: `rtmp://127.0.0.1:${youtubePort}/live2` });
    twitch = await startFakeTwitch({ ingestBase: `rtmp://127.0.0.1:${twitchPort}/app` });
    server = await startTestServer('pglite', {
      ...google.env,
      ...twitch.env,
      COMPOSER_WORKER: 'local',
      COMPOSER_SPARES: '0',
      COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
    });
    host = await server.signUp({ username: 'Chaos Host' });
    connectionOf.youtube = (await connected(server, host, 'youtube')).id;
    connectionOf.twitch = (await connected(server, host, 'twitch')).id;
    const own = await server.post<{ data: { id: number } }>('add-rtmp-destination.php', {
      token: host.token,
      name: 'Own server',
      url: `rtmp://127.0.0.1:${rtmpPort}/live`,
      stream_key: 'chaos-key',
    });
    connectionOf.rtmp = own.body.data!.data.id;
    slug = (await insertMeeting(server, { hostId: host.user.id, state: 'live' })).slug;
    const started = await server.post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: slug,
      destinations: JSON.stringify(Object.values(connectionOf).map((id) => ({ connection_id: id }))),
      record: 1,
    });
    expect(started.httpStatus).toBe(200);
    await expectApiMatchesReceivers(['youtube', 'twitch', 'rtmp']);
    const stages = stagesOf(server.built.context.config.dataDir);
    expect(stages).toHaveLength(1);
    stage = stages[0]!;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
    await google?.close();
    await twitch?.close();
    layoutPage?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a receiver away for 90 s is live again within 35 s of its return; the others lose no frame', async () => {
    const others = [receivers.youtube, receivers.twitch];
    const filesBefore = others.map((receiver) => receiver.file);
    const lastBefore = others.map((receiver) => videoTimestamps(receiver.file).at(-1) ?? 0);
    receivers.rtmp.kill();
    const downAt = Date.now();
    await waitFor(async () => (await stateOf('rtmp')) === 'reconnecting', 20_000, 'the lost one reconnecting');
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - downAt)));
    const outage = (Date.now() - downAt) / 1000;
    receivers.rtmp.start();
    const backAt = Date.now();
    await waitFor(async () => (await stateOf('rtmp')) === 'live', BACK_LIVE_WITHIN_MS, 'the returned one live');
    const bytesAtLive = receivers.rtmp.bytes();
    console.info(`chaos: receiver back live ${Date.now() - backAt} ms after its return (budget 35 s)`);
    await waitFor(() => receivers.rtmp.bytes() > bytesAtLive, 5000, 'media at the returned receiver');

    // The others kept their one connection, with a video packet every frame all along.
    others.forEach((receiver, index) => {
      expect(receiver.file, 'no reconnection').toBe(filesBefore[index]);
      const timestamps = videoTimestamps(receiver.file);
      const gap = largestGap(timestamps, lastBefore[index]);
      console.info(`chaos: ${receiver.path} largest step between frames ${gap.toFixed(3)} s during the outage`);
      expect(gap).toBeLessThanOrEqual(FRAME_GAP_S);
      expect(timestamps.at(-1)! - lastBefore[index]!).toBeGreaterThan(outage - 2);
    });
    await expectApiMatchesReceivers(['youtube', 'twitch', 'rtmp']);
  }, 200_000);

  it("the composer's Chromium killed: started again on the layout, media flows, the broadcast stays live", async () => {
    const chromium = chromiumOf(stage);
    expect(chromium).toBeDefined();
    const killedTree = treeOf(chromium!);
    const openedBefore = layoutOpened.count;
    process.kill(chromium!, 'SIGKILL');
    const killedAt = Date.now();
    await waitFor(() => layoutOpened.count > openedBefore, 60_000, 'the layout opened again');
    console.info(`chaos: layout shown again ${Date.now() - killedAt} ms after Chromium was killed`);
    expect(chromiumOf(stage)).not.toBe(chromium);
    // Nothing of the killed browser is left: not its zygote, renderers or GPU process.
    await waitFor(() => killedTree.every((pid) => !isRunning(pid)), 15_000, 'the killed browser all gone');
    await expectApiMatchesReceivers(['youtube', 'twitch', 'rtmp']);
  }, 120_000);

  it("the encoder's ffmpeg killed, four times: a new one continues each time, the broadcast stays live", async () => {
    // Four deaths, each of an encoder that had run for a while: not a crash loop, which alone ends a broadcast.
    for (let kill = 1; kill <= 4; kill++) {
      const [encoder, ...more] = encoderOf(stage);
      expect(encoder).toBeDefined();
      expect(more).toEqual([]);
      process.kill(encoder!, 'SIGKILL');
      await waitFor(() => encoderOf(stage).some((pid) => pid !== encoder), 20_000, `a new encoder after kill ${kill}`);
      const replacedAt = Date.now();
      expect(isRunning(encoder!)).toBe(false);
      expect(encoderOf(stage)).toHaveLength(1);
      await expectApiMatchesReceivers(['youtube', 'twitch', 'rtmp']);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, STABLE_ENCODER_MS - (Date.now() - replacedAt))));
    }
  }, 180_000);

  it('stops within 2 s; the recording is whole; nothing of the composer is left', async () => {
    const stopAt = Date.now();
    const stopped = await server.post<BroadcastAnswer>('stop-broadcast.php', { token: host.token, meetId: slug });
    expect(stopped.httpStatus).toBe(200);
    expect(Date.now() - stopAt).toBeLessThan(2000);
    await waitFor(async () => (await broadcastOf()).state === 'ended', 30_000, 'ended');
    expect((await broadcastOf()).destinations.map((entry) => entry.state)).toEqual(['ended', 'ended', 'ended']);

    const db = server.built.context.db;
    const id = (await broadcastOf()).id;
    let recording: string | null = null;
    let startedAt: Date | null = null;
    await waitFor(
      async () => {
        const [broadcast] = await db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, id));
        recording = broadcast?.recordingFile ?? null;
        startedAt = broadcast?.startedAt ?? null;
        return recording !== null;
      },
      30_000,
      'the recording named',
    );
    const file = join(server.built.context.config.dataDir, 'recordings', recording!);
    const wallSeconds = (stopAt - startedAt!.getTime()) / 1000;
    const duration = mediaDuration(file);
    const hole = largestGap(videoTimestamps(file));
    console.info(
      `chaos: recording ${duration.toFixed(1)} s for ${wallSeconds.toFixed(1)} s live; largest hole ${hole.toFixed(2)} s`,
    );
    expect(Math.abs(duration - wallSeconds)).toBeLessThan(5);
    // The only holes are the encoder's restarts (it continues the clock; ADR 021).
    expect(hole).toBeLessThan(4);
    await waitFor(() => leftoversOf(stage).length === 0, 15_000, 'nothing of the stage left');
  }, 90_000);
});
