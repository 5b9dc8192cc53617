import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveBroadcast } from '@meetcast/contracts';
import { eq, liveBroadcasts, meetings } from '@meetcast/db';
import { startFakeGoogle, type FakeGoogle } from '@meetcast/testkit/fake-google';
import { startFakeTwitch, type FakeTwitch } from '@meetcast/testkit/fake-twitch';
import { MailSink } from '@meetcast/testkit/mail-sink';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { waitFor } from '../../src/streaming/composer/child-processes.js';
import { connected } from '../stream-helpers.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';
import type { ApiAnswer, Fields } from '../test-server.js';
import {
  largestGap,
  leftoversOf,
  mediaDuration,
  stagesOf,
  startLayoutPage,
  videoTimestamps,
  type StageOnDisk,
} from './composer-processes.js';

type BroadcastAnswer = { data: LiveBroadcast | null };
type Platform = 'youtube' | 'twitch' | 'rtmp';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The whole server process killed (SIGKILL) mid-broadcast, and started again on the same PostgreSQL,
 * Redis and DATA_DIR: its composer dies with it (nothing orphaned), the new process takes the
 * broadcast back at once (its old worker is known dead, no 15-s wait for a stale heartbeat), every
 * receiver gets media again, and the recording is one file from the start to the stop. About 90 s.
 */
describe('the server process killed while live (real composer, restarted process)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'meetcast-takeover-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-takeover-data-'));
  const mail = new MailSink();
  const layoutOpened = { count: 0 };
  const receivers = {} as Record<Platform, RtmpReceiver>;
  let database: TestDatabase;
  let layoutPage: Server;
  let google: FakeGoogle;
  let twitch: FakeTwitch;
  let env: Record<string, string>;
  let server: ChildProcess | undefined;
  let baseUrl = '';

  async function post<T>(name: string, fields: Fields = {}): Promise<ApiAnswer<T>> {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, String(value));
    const response = await fetch(`${baseUrl}/api/${name}`, { method: 'POST', body: form });
    return { httpStatus: response.status, body: (await response.json()) as ApiAnswer<T>['body'] };
  }

  /** `node apps/server/src/main.ts`, as in production, until it answers /readyz. */
  async function startServer() {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', openSync(join(folder, 'server.log'), 'a'), openSync(join(folder, 'server.log'), 'a')],
    });
    server = child;
    baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited: ${readFileSync(join(folder, 'server.log'), 'utf8')}`);
        return Boolean((await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.ok);
      },
      90_000,
      'the server process ready',
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    layoutPage = await startLayoutPage({ opened: layoutOpened });
    const [youtubePort, twitchPort, rtmpPort] = [await freePort(), await freePort(), await freePort()];
    receivers.youtube = new RtmpReceiver(youtubePort, 'live2/stream', join(folder, 'youtube')).start();
    receivers.twitch = new RtmpReceiver(twitchPort, 'app/stream', join(folder, 'twitch')).start();
    receivers.rtmp = new RtmpReceiver(rtmpPort, 'live/takeover-key', join(folder, 'rtmp')).start();
    google = await startFakeGoogle({ ingestBase: `rtmp://127.0.0.1:${youtubePort}/live2` });
    twitch = await startFakeTwitch({ ingestBase: `rtmp://127.0.0.1:${twitchPort}/app` });
    env = {
      ...google.env,
      ...twitch.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url!,
      REDIS_URL,
      REDIS_PREFIX: `test-takeover-${process.pid}-${Date.now()}`,
      SMTP_URL: await mail.start(),
      LOG_LEVEL: 'info',
      RATE_LIMIT_MULTIPLIER: '100',
      RTMP_ALLOW_PRIVATE: '127.0.0.1',
      COMPOSER_WORKER: 'local',
      COMPOSER_SPARES: '0',
      COMPOSER_PAGE_URL: `http://127.0.0.1:${(layoutPage.address() as AddressInfo).port}`,
    };
    await startServer();
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
    await Promise.all([google?.close(), twitch?.close(), mail.close(), database?.drop()]);
    layoutPage?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the broadcast back at once; receivers get media again; the recording runs from start to stop', async () => {
    const email = `takeover.${process.pid}.${Date.now()}@example.com`;
    await post('signup.php', { username: 'Takeover Host', email, password: 'correct horse battery' });
    const confirmed = await post<{ token: string; data: { id: number } }>('confirm-signup.php', {
      email,
      code: await mail.codeFor(email, 0),
    });
    const host = { token: confirmed.body.data!.token, id: confirmed.body.data!.data.id };
    const connectionOf: Record<Platform, number> = {
      youtube: (await connected({ post }, host, 'youtube')).id,
      twitch: (await connected({ post }, host, 'twitch')).id,
      rtmp: (
        await post<{ data: { id: number } }>('add-rtmp-destination.php', {
          token: host.token,
          name: 'Own server',
          url: receivers.rtmp.url.replace(/\/takeover-key$/, ''),
          stream_key: 'takeover-key',
        })
      ).body.data!.data.id,
    };
    const slug = `takeover-${Date.now()}`;
    await database.handle.db.insert(meetings).values({
      hostId: host.id,
      name: 'Takeover show',
      slug,
      isSchedule: 1,
      isPrivate: 2,
      isPassword: 2,
      state: 'live',
      startTime: new Date(),
      endTime: new Date(Date.now() + 3_600_000),
    });
    const broadcastOf = async () =>
      (await post<BroadcastAnswer>('get-broadcast.php', { token: host.token, meetId: slug })).body.data!.data!;
    const allLive = async () => {
      const broadcast = await broadcastOf();
      return broadcast.state === 'live' && broadcast.destinations.every((entry) => entry.state === 'live');
    };
    const started = await post<BroadcastAnswer>('start-broadcast.php', {
      token: host.token,
      meetId: slug,
      destinations: JSON.stringify(Object.values(connectionOf).map((id) => ({ connection_id: id }))),
      record: 1,
    });
    expect(started.httpStatus).toBe(200);
    await waitFor(allLive, 120_000, 'all three destinations live');
    await new Promise((resolve) => setTimeout(resolve, 10_000));

    const [stage] = stagesOf(dataDir) as [StageOnDisk];
    expect(stage).toBeDefined();
    server!.kill('SIGKILL');
    const killedAt = Date.now();
    await once(server!, 'exit');
    // Its composer died with it (pdeathsig): no Xvfb, PulseAudio, Chromium or ffmpeg of its stage is left.
    await waitFor(() => leftoversOf(stage).length === 0, 10_000, 'nothing left of the killed composer');

    const bytesAtKill = Object.values(receivers).map((receiver) => receiver.bytes());
    await startServer();
    const restartedAfter = Date.now() - killedAt;
    await waitFor(
      () => Object.values(receivers).every((receiver, index) => receiver.bytes() > bytesAtKill[index]! + 50_000),
      90_000,
      'every receiver getting media again',
    );
    const mediaAgainAfter = Date.now() - killedAt;
    await waitFor(allLive, 30_000, 'the API saying live, with every destination live');
    console.info(
      `chaos: server restarted ${restartedAfter} ms after the kill; media at every receiver again after ${mediaAgainAfter} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 10_000));

    const stopAt = Date.now();
    const stopped = await post<BroadcastAnswer>('stop-broadcast.php', { token: host.token, meetId: slug });
    expect(stopped.httpStatus).toBe(200);
    expect(Date.now() - stopAt).toBeLessThan(2000);
    await waitFor(async () => (await broadcastOf()).state === 'ended', 30_000, 'ended');
    const id = (await broadcastOf()).id;
    let row: typeof liveBroadcasts.$inferSelect | undefined;
    await waitFor(
      async () => {
        [row] = await database.handle.db.select().from(liveBroadcasts).where(eq(liveBroadcasts.id, id));
        return Boolean(row?.recordingFile);
      },
      30_000,
      'the recording named',
    );
    const file = join(dataDir, 'recordings', row!.recordingFile!);
    const wallSeconds = (stopAt - row!.startedAt!.getTime()) / 1000;
    const duration = mediaDuration(file);
    const hole = largestGap(videoTimestamps(file));
    console.info(
      `chaos: recording ${duration.toFixed(1)} s for ${wallSeconds.toFixed(1)} s live, ` +
        `largest hole inside ${hole.toFixed(2)} s (the parts are joined end to end: the takeover's ` +
        `${(mediaAgainAfter / 1000).toFixed(1)} s are missing, not shown as a hole)`,
    );
    // From the first composer's start to the stop, less the time nobody composed.
    expect(duration).toBeGreaterThan(wallSeconds - mediaAgainAfter / 1000 - 3);
    expect(duration).toBeLessThan(wallSeconds + 3);
    // No hole longer than the takeover: the encoder's own restarts (a step down on a busy machine) may leave a few seconds.
    expect(hole).toBeLessThan(mediaAgainAfter / 1000);
  }, 360_000);
});
