import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BroadcastViewer } from '@meetcast/contracts';
import { liveBroadcasts } from '@meetcast/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/media/managed-janus.js';
import { ProcessLedger } from '../../src/streaming/composer/child-processes.js';
import { MediaFanOut } from '../../src/streaming/composer/media-fan-out.js';
import { ViewerFeed } from '../../src/streaming/composer/viewer-feed.js';
import { insertMeeting } from '../room-helpers.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { testEncode } from './test-encode.js';

/** Debian's nginx as a caching reverse proxy in front of the HLS path, honouring our Cache-Control. */
function cachingProxyConfig(folder: string, listen: number, origin: string) {
  return `
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
user root;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  proxy_cache_path ${folder}/cache levels=1:2 keys_zone=hls:1m max_size=100m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:${listen};
    location /api/live/ {
      proxy_pass http://${origin};
      proxy_http_version 1.1;
      proxy_cache hls;
      proxy_cache_lock on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`;
}

/** The number of the newest segment a playlist lists (-Infinity when it lists none). */
const newestSegment = (playlist: string) =>
  Math.max(...[...playlist.matchAll(/segment-(\d+)\.ts/g)].map((m) => Number(m[1])));

async function fetchText(url: string) {
  const response = await fetch(url);
  return { status: response.status, cache: response.headers.get('x-cache-status'), text: await response.text() };
}

function ffprobeStreams(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const probe = spawn('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    probe.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => probe.kill('SIGKILL'), 30_000);
    probe.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`ffprobe exited with ${code}`));
    });
  });
}

/** ADR 034: a live broadcast's HLS works unchanged through a caching reverse proxy or CDN. */
describe('HLS through a caching reverse proxy', () => {
  let server: TestServer;
  let nginx: ChildProcess | undefined;
  let proxyFolder: string;
  let proxyUrl: string;
  let feed: ViewerFeed | undefined;
  let encode: ChildProcess | undefined;

  beforeAll(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'error' });
    proxyFolder = mkdtempSync(join(tmpdir(), 'meetcast-hls-cache-'));
    const listen = await freePort();
    writeFileSync(
      join(proxyFolder, 'nginx.conf'),
      cachingProxyConfig(proxyFolder, listen, new URL(server.baseUrl).host),
    );
    nginx = spawn('nginx', ['-p', proxyFolder, '-c', join(proxyFolder, 'nginx.conf'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    proxyUrl = `http://127.0.0.1:${listen}`;
  }, 120_000);
  afterAll(async () => {
    encode?.kill('SIGKILL');
    await feed?.stop();
    nginx?.kill('SIGTERM');
    await server.close();
  });

  it('serves the live playlist for a second and segments for good from the cache, and the playlist advances', async () => {
    const host = await server.signUp({ username: 'Cache Host' });
    const meeting = await insertMeeting(server, { hostId: host.user.id, state: 'live' });
    const { context } = server.built;
    const [broadcast] = await context.db
      .insert(liveBroadcasts)
      .values({ meetingId: meeting.id, state: 'live', startedAt: new Date() })
      .returning();
    const fanOut = new MediaFanOut();
    encode = testEncode((chunk) => fanOut.write(chunk));
    const ledger = new ProcessLedger(mkdtempSync(join(tmpdir(), 'meetcast-hls-cache-feed-')), 'test');
    feed = new ViewerFeed(context, ledger, fanOut, broadcast!.id, () => undefined);
    await feed.start(meeting);
    const answer = await server.post<{ data: BroadcastViewer }>('get-broadcast-viewer.php', { meetId: meeting.slug });
    const playlistUrl = `${proxyUrl}${answer.body.data!.data.hls_url}`;

    // Through the proxy from the first segment on.
    await expect
      .poll(async () => (await fetchText(playlistUrl).catch(() => ({ text: '' }))).text, {
        timeout: 30_000,
        interval: 500,
      })
      .toMatch(/segment-\d+\.ts/);
    // The second request within the playlist's second is the cache's (a busy machine may need a few tries).
    let second = { status: 0, cache: null as string | null, text: '' };
    for (let attempt = 0; attempt < 10 && second.cache !== 'HIT'; attempt++) {
      await fetchText(playlistUrl);
      second = await fetchText(playlistUrl);
    }
    expect(second).toMatchObject({ status: 200, cache: 'HIT' });

    const segment = /^segment-\d+\.ts$/m.exec(second.text)![0];
    const segmentUrl = playlistUrl.replace('index.m3u8', segment);
    const firstSegment = await fetch(segmentUrl);
    const firstBytes = Buffer.from(await firstSegment.arrayBuffer());
    const again = await fetch(segmentUrl);
    expect(again.headers.get('x-cache-status')).toBe('HIT');
    expect(Buffer.from(await again.arrayBuffer()).equals(firstBytes)).toBe(true);
    expect(firstBytes.length).toBeGreaterThan(1000);

    // A player reads the stream through the cache as it would from the server.
    const streams = await ffprobeStreams(playlistUrl);
    expect(streams).toMatch(/h264/);
    expect(streams).toMatch(/aac/);

    // The playlist is not kept past its max-age: through the cache it follows the server's, a
    // second behind at most (nginx counts whole seconds: two, with a segment on the way).
    const origin = `${server.baseUrl}${answer.body.data!.data.hls_url}`;
    const seen: { at: number; origin: number; proxied: number }[] = [];
    const startedAt = Date.now();
    while (Date.now() - startedAt < 8000) {
      const at = Date.now();
      const direct = newestSegment((await fetchText(origin)).text);
      const proxied = newestSegment((await fetchText(playlistUrl)).text);
      seen.push({ at, origin: direct, proxied });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen.at(-1)!.proxied).toBeGreaterThan(seen[0]!.proxied);
    for (const sample of seen) {
      const olderOrigin = seen.filter((earlier) => earlier.at <= sample.at - 2500).at(-1);
      if (olderOrigin) expect(sample.proxied, JSON.stringify(sample)).toBeGreaterThanOrEqual(olderOrigin.origin);
    }
    // Once the broadcast is gone, the server refuses at once and the cache keeps no refusal.
    await feed.stop();
    expect((await fetchText(origin)).status).toBe(404);
    const refused = await fetch(playlistUrl.replace('index.m3u8', 'segment-1.ts'));
    expect(refused.status).toBe(404);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(readFileSync(join(proxyFolder, 'error.log'), 'utf8')).not.toMatch(/\[(crit|alert|emerg)\]/);
  }, 120_000);
});
