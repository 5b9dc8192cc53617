// The whole YouTube go-live sequence, from one run (budgets in docs/benchmarks/go-live.md), against the real server, Janus
// and composer, and a local server that speaks the YouTube Data API calls we make (the test kit's fake,
// packages/testkit) with a real RTMP receiver as YouTube's ingest:
//  - "Go live" → first media bytes at YouTube's ingest (budget ≤ 5 s);
//  - "Go live" → the YouTube broadcast transitioned to `live` (budget ≤ 10 s): liveBroadcasts.insert,
//    liveStreams.insert, bind, the push, streamStatus `active` (reported once the ingest has received
//    media), transition to `live`;
//  - "Stop" → the broadcast `complete` at YouTube.
// One participant (the painted clock) is in the room. Needs the built web app (npm run build), Debian's
// Chromium, Xvfb, PulseAudio and ffmpeg.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamConnection } from '@meetcast/contracts';
import { chromium } from '@playwright/test';
import { startFakeGoogle } from '@meetcast/testkit/fake-google';
import { followConsent } from '@meetcast/testkit/fake-oauth';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@meetcast/testkit/chromium';
import { api, joinParticipants, startComposerServer, stopComposerServer } from './composer/bench-server';
import { BenchReceiver } from './composer/receivers';

const INGEST_PORT = 19371; // the receiving ffmpeg listens 100 above, behind the receiver's relay
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(isDone: () => boolean, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!isDone()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not within ${timeoutMs} ms`);
    await sleep(20);
  }
  return Date.now();
}

const folder = mkdtempSync(join(tmpdir(), 'meetcast-youtube-bench-'));
const ingest = new BenchReceiver(INGEST_PORT, join(folder, 'youtube.flv'), false).start();
const google = await startFakeGoogle({
  ingestBase: `rtmp://127.0.0.1:${INGEST_PORT}/live2`,
  channel: { id: 'UCbench', title: 'Bench Channel' },
  // YouTube reports the stream active once its ingest receives media.
  isStreamActive: () => ingest.firstBytesAt !== undefined,
});
// The bench server reads its settings from the environment it inherits: Google's and YouTube's base URLs.
Object.assign(process.env, google.env);
const { child, info } = await startComposerServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  // Its answer is `{ data: { url } }`, not the `data.data` that api() reads.
  const started = await fetch(`${info.url}/api/start-stream-connection.php`, {
    method: 'POST',
    body: new URLSearchParams({ token: info.token, platform: 'youtube' }),
  });
  const { data: start } = (await started.json()) as { data: { url: string } };
  const redirect = await followConsent(start.url, 'allow');
  const connection = await api<StreamConnection>(info, 'finish-stream-connection.php', {
    platform: 'youtube',
    code: redirect.searchParams.get('code') ?? '',
    state: redirect.searchParams.get('state') ?? '',
  });
  await joinParticipants(browser, info, 1);
  // The worker's spare stage starts with the server: let it be ready, as it is on a running server.
  await sleep(5000);
  console.log(
    `YouTube go-live bench: one participant in the room, channel "${connection.name}"; load average ${loadavg()}`,
  );

  const requestsBefore = google.requests.length;
  const clickedAt = Date.now();
  await api(info, 'start-broadcast.php', {
    meetId: info.slug,
    destinations: JSON.stringify([
      { connection_id: connection.id, title: 'Bench broadcast', description: 'Measured', privacy: 'unlisted' },
    ]),
  });
  const answeredAt = Date.now();
  const isLiveAtYouTube = () => google.broadcasts().some((broadcast) => broadcast.lifeCycleStatus === 'live');
  const [firstBytes, liveAt] = await Promise.all([
    ingest.waitForFirstBytes(30_000),
    until(isLiveAtYouTube, 30_000, 'the YouTube broadcast live'),
  ]);
  console.log(
    `go live → start-broadcast.php answered ${answeredAt - clickedAt} ms; first media bytes at YouTube's ingest ` +
      `${firstBytes.socket - clickedAt} ms (budget ≤ 5000); YouTube broadcast live ${liveAt - clickedAt} ms ` +
      `(budget ≤ 10000); load average ${loadavg()}`,
  );
  console.log(`  YouTube API calls on the way: ${google.requests.slice(requestsBefore).join(', ')}`);

  await sleep(3000);
  const stoppedAt = Date.now();
  await api(info, 'stop-broadcast.php', { meetId: info.slug });
  const completeAt = await until(
    () => google.broadcasts().every((broadcast) => broadcast.lifeCycleStatus === 'complete'),
    30_000,
    'the YouTube broadcast complete',
  );
  console.log(`stop → YouTube broadcast complete ${completeAt - stoppedAt} ms; load average ${loadavg()}`);
} finally {
  await browser.close();
  await stopComposerServer(child);
  await ingest.stop();
  await google.close();
  rmSync(folder, { recursive: true, force: true });
}
