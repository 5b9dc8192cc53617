/**
 * The real Meetcast server for the end-to-end suite: the same buildApp() as apps/server/src/main.ts,
 * on its own port, with a fresh embedded database (PGlite) in a temporary DATA_DIR, mail going to the
 * sink of mail-server.ts, and the built web app (npm run build) served by it.
 *
 * One addition exists only here, never in the product: a loopback-only HTTP hook on its own port that
 * calls the server's own notifier (context.notifier.notify), so a test can make a notification reach a
 * user the way any feature would and then watch it arrive live in the browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meetings, streamConnections } from '@meetcast/db';
import { buildApp, hashPassword, loadConfig, secretsBoxFor } from '@meetcast/server';
import { startFakeGoogle } from '@meetcast/testkit/fake-google';
import { startFakeTwitch } from '@meetcast/testkit/fake-twitch';
import { FakeYouTubeChat } from '@meetcast/testkit/fake-youtube-chat';
import { seedForAdmin } from './admin-seed.js';
import { seedBroadcast } from './broadcast-seed.js';
import { E2E_PORTS } from './ports.js';

const dataDir = mkdtempSync(join(tmpdir(), 'meetcast-e2e-'));
// Google/YouTube and Twitch cannot be reached from here: their local stand-ins, pushing to receivers
// the streaming tests start on known ports.
const google = await startFakeGoogle({
  port: E2E_PORTS.google,
  ingestBase: `rtmp://127.0.0.1:${E2E_PORTS.youtubeIngest}/live2`,
});
const twitch = await startFakeTwitch({
  port: E2E_PORTS.twitch,
  ingestBase: `rtmp://127.0.0.1:${E2E_PORTS.twitchIngest}/app`,
});
const config = loadConfig({
  ...process.env,
  PORT: String(E2E_PORTS.app),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORTS.app}`,
  ...google.env,
  ...twitch.env,
  RATE_LIMIT_MULTIPLIER: '50',
  // The streaming specs' receivers and the stand-ins' ingests listen on this machine.
  RTMP_ALLOW_PRIVATE: '127.0.0.1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // Several checkouts' suites share this machine and TURN's one port; the calls reach Janus directly
  // (ICE over TCP without UDP), and the network-namespace tests start servers with a coturn of their own.
  TURN: process.env.TURN ?? 'off',
});
const { app, context } = await buildApp(config);

/** Room tests: a meeting put straight into the database (until they create them through the meetings API). */
async function insertMeeting(fields: { hostId: number; isPrivate?: number; password?: string; isSchedule?: number }) {
  const slug = `room-${randomBytes(5).toString('hex')}`;
  const [row] = await context.db
    .insert(meetings)
    .values({
      hostId: fields.hostId,
      name: `Room ${slug}`,
      slug,
      isSchedule: fields.isSchedule ?? 1,
      isPrivate: fields.isPrivate ?? 2,
      isPassword: fields.password ? 1 : 2,
      passwordPlain: fields.password ?? null,
      passwordHash: fields.password ? await hashPassword(fields.password) : null,
      startTime: new Date(),
      endTime: new Date(Date.now() + 3_600_000),
    })
    .returning();
  return row;
}

/** An RTMP address stored without the checks of add-rtmp-destination.php, as one saved before them. */
async function insertRtmpConnection(fields: { userId: number; name: string; url: string; streamKey: string }) {
  const [row] = await context.db
    .insert(streamConnections)
    .values({
      userId: fields.userId,
      platform: 'rtmp',
      name: fields.name,
      rtmpUrl: fields.url,
      streamKeySealed: secretsBoxFor(context.config).seal(fields.streamKey),
    })
    .returning();
  return row;
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')));
    request.on('error', reject);
  });
}

const hook = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'POST' && url.pathname === '/meeting') {
    readJson(request)
      .then((fields) => insertMeeting(fields as Parameters<typeof insertMeeting>[0]))
      .then(
        (row) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(row)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    return;
  }
  if (request.method === 'POST' && url.pathname === '/rtmp-connection') {
    readJson(request)
      .then((fields) => insertRtmpConnection(fields as Parameters<typeof insertRtmpConnection>[0]))
      .then(
        (row) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(row)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    return;
  }
  // Streaming tests: what the platforms' stand-ins were asked to do.
  if (request.method === 'GET' && url.pathname === '/fake-platforms') {
    const state = {
      youtube: { broadcasts: google.broadcasts(), streams: google.streams(), inserted: google.insertedBroadcasts },
      twitch: { channels: [...twitch.channels.values()], streamKey: twitch.streamKeyOf(twitch.user.id) },
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state));
    return;
  }
  // Platform chat: a viewer writes in the YouTube chat of the latest broadcast, or in the Twitch channel's.
  if (request.method === 'POST' && url.pathname === '/platform-chat') {
    readJson(request).then(
      (fields) => {
        const { platform, author, text } = fields as { platform: 'youtube' | 'twitch'; author: string; text: string };
        const latest = google.broadcasts().at(-1);
        if (platform === 'youtube' && latest)
          google.chat.say(FakeYouTubeChat.chatIdOf(latest.id), { name: author }, text);
        else if (platform === 'twitch')
          twitch.eventSub.say(twitch.user.id, { id: '7070', login: 'e2e', name: author }, text);
        else return response.writeHead(404).end();
        response.writeHead(200).end();
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
    return;
  }
  // Room tests: the media server dies; the supervisor must bring it (and the rooms) back.
  if (request.method === 'POST' && url.pathname === '/kill-janus') {
    const pid = context.media.managed?.pid;
    if (pid) process.kill(pid, 'SIGKILL');
    response.writeHead(pid ? 200 : 404).end();
    return;
  }
  if (request.method === 'POST' && url.pathname === '/broadcast-seed') {
    const body: Buffer[] = [];
    request.on('data', (chunk: Buffer) => body.push(chunk));
    request.on('end', () => {
      seedBroadcast(context.db, dataDir, JSON.parse(Buffer.concat(body).toString('utf8'))).then(
        (row) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(row)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
    return;
  }
  if (request.method !== 'POST' || (url.pathname !== '/notify' && url.pathname !== '/admin-seed')) {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  if (url.pathname === '/admin-seed') {
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seedForAdmin(context.db, JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
        (row) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(row)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
    return;
  }
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { userId, html } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { userId: number; html: string };
    context.notifier.notify(userId, html).then(
      (notification) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(notification)),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
});

async function shutdown() {
  hook.close();
  await app.close().catch(() => undefined);
  await Promise.all([google.close(), twitch.close()]);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown());

await app.listen({ port: config.port, host: config.host });
hook.listen(E2E_PORTS.hook, '127.0.0.1');
