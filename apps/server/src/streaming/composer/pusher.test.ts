import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../media/managed-janus.js';
import { NginxRtmp } from '../../../test/streaming/rtmp-ingests.js';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { testEncode } from '../../../test/streaming/test-encode.js';
import { ProcessLedger, waitFor } from './child-processes.js';
import { copyFromEncodeProbing } from './ffmpeg-progress.js';
import { FlvFanOut } from './flv-fan-out.js';
import { MediaFanOut } from './media-fan-out.js';
import { Pusher, type PusherState } from './pusher.js';

const folder = mkdtempSync(join(tmpdir(), 'meetcast-pusher-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a destination pusher (real ffmpeg, real RTMP receivers)', () => {
  it('goes live, reconnects when its receiver dies and comes back, and never holds up another', async () => {
    const ledger = new ProcessLedger(folder, 'pushers');
    const steady = new RtmpReceiver(await freePort(), 'live/steady', join(folder, 'steady')).start();
    const flaky = new RtmpReceiver(await freePort(), 'live/flaky', join(folder, 'flaky')).start();
    const states: PusherState[] = [];
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const steadyPusher = new Pusher(
      flv,
      steady.url,
      () => 30,
      () => undefined,
    );
    const flakyPusher = new Pusher(
      flv,
      flaky.url,
      () => 30,
      () => undefined,
    );
    flakyPusher.on('state', (state) => states.push(state));
    const source = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
    );
    try {
      steadyPusher.start();
      flakyPusher.start();
      await waitFor(() => steadyPusher.state === 'live' && flakyPusher.state === 'live', 15_000, 'both live');
      await waitFor(() => steady.bytes() > 0 && flaky.bytes() > 0, 10_000, 'bytes at both receivers');

      flaky.kill();
      const killedAt = Date.now();
      await waitFor(() => flakyPusher.state === 'reconnecting', 10_000, 'reconnecting');
      // Noticed within the budget (5 s).
      expect(Date.now() - killedAt).toBeLessThan(5000);
      const steadyBytes = steady.bytes();
      flaky.start();
      await waitFor(() => flakyPusher.state === 'live', 20_000, 'live again');
      // The steady destination kept receiving all along.
      await waitFor(() => flaky.bytes() > 0, 10_000, 'bytes at the restarted receiver');
      expect(steady.bytes()).toBeGreaterThan(steadyBytes);
      expect(steadyPusher.state).toBe('live');
      expect(steadyPusher.figures.bitrateKbps).toBeGreaterThan(50);
      expect(states).toEqual(expect.arrayContaining(['live', 'reconnecting']));
    } finally {
      source.kill('SIGKILL');
      await Promise.all([steadyPusher.stop(), flakyPusher.stop()]);
      flv.stop();
      await Promise.all([steady.stop(), flaky.stop()]);
      ledger.killAll();
    }
  }, 60_000);

  it('drops a receiver that stops reading and connects again, while the encode and the others go on', async () => {
    const ledger = new ProcessLedger(folder, 'hanging');
    const steady = new RtmpReceiver(await freePort(), 'live/steady', join(folder, 'steady-2')).start();
    const hanging = new RtmpReceiver(await freePort(), 'live/hanging', join(folder, 'hanging')).start();
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const steadyPusher = new Pusher(
      flv,
      steady.url,
      () => 30,
      () => undefined,
    );
    const hangingPusher = new Pusher(
      flv,
      hanging.url,
      () => 30,
      () => undefined,
    );
    let encoded = 0;
    const source = testEncode(
      (chunk) => {
        encoded += chunk.length;
        fanOut.write(chunk);
      },
      (chunk) => flv.write(chunk),
    );
    try {
      steadyPusher.start();
      hangingPusher.start();
      await waitFor(() => steadyPusher.state === 'live' && hangingPusher.state === 'live', 20_000, 'both live');
      // Long enough for the receiver to have acknowledged what it read (every 64 KB), as ingests do.
      await waitFor(() => hanging.bytes() > 256 * 1024, 20_000, 'the receiver reading');
      hanging.pause();
      const pausedAt = Date.now();
      const [encodedBefore, steadyBefore] = [encoded, steady.bytes()];
      // Bytes still leave into the kernel's buffers; the missing acknowledgements tell.
      await waitFor(() => hangingPusher.state === 'reconnecting', 60_000, 'the hanging one dropped');
      expect(Date.now() - pausedAt).toBeLessThan(15_000);
      expect(hangingPusher.error).toBe('broadcasts.destination_stalled');
      expect(encoded).toBeGreaterThan(encodedBefore);
      expect(steady.bytes()).toBeGreaterThan(steadyBefore);
      expect(steadyPusher.state).toBe('live');
      hanging.kill();
      hanging.start();
      await waitFor(() => hangingPusher.state === 'live', 30_000, 'live again');
    } finally {
      source.kill('SIGKILL');
      hanging.resume();
      await Promise.all([steadyPusher.stop(), hangingPusher.stop()]);
      flv.stop();
      await Promise.all([steady.stop(), hanging.stop()]);
      ledger.killAll();
    }
  }, 120_000);

  it('waits for the encode without counting it against the destination: no stall, live on its first connection', async () => {
    const ledger = new ProcessLedger(folder, 'late-encode');
    const receiver = new RtmpReceiver(await freePort(), 'live/late', join(folder, 'late')).start();
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const pusher = new Pusher(
      flv,
      receiver.url,
      () => 30,
      () => undefined,
    );
    const errors: (string | null)[] = [];
    pusher.on('state', (_state, error) => errors.push(error));
    let source: ReturnType<typeof testEncode> | undefined;
    try {
      pusher.start();
      // Longer than a connection gets for its first bytes (12 s): an encode, or a remux that failed
      // its probe on a busy machine, late to give the headers and a keyframe.
      const startedAt = Date.now();
      await waitFor(() => Date.now() - startedAt > 13_000, 15_000, 'the encode late');
      source = testEncode(
        (chunk) => fanOut.write(chunk),
        (chunk) => flv.write(chunk),
      );
      await waitFor(() => pusher.state === 'live', 20_000, 'live');
      expect(errors).toEqual([null]);
      expect(receiver.bytes()).toBeGreaterThan(0);
    } finally {
      source?.kill('SIGKILL');
      await pusher.stop();
      flv.stop();
      await receiver.stop();
      ledger.killAll();
    }
  }, 60_000);

  it('keeps trying a destination whose receiver is down far longer than the old give-up, and pushes once it is back', async () => {
    const ledger = new ProcessLedger(folder, 'down-long');
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const receiver = new RtmpReceiver(await freePort(), 'live/late-receiver', join(folder, 'late-receiver'));
    // Shorter waits than a real broadcast's (1 s to 30 s), so that being back is seen soon. The
    // receiver stays away 20 s: the old rule gave up after five attempts, about 15 s with those waits.
    const backoff = { firstMs: 250, maxMs: 2000 };
    const pusher = new Pusher(
      flv,
      receiver.url,
      () => 30,
      () => undefined,
      { backoff },
    );
    const states: PusherState[] = [];
    pusher.on('state', (state) => states.push(state));
    const source = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
    );
    try {
      pusher.start();
      const startedAt = Date.now();
      await waitFor(() => Date.now() - startedAt > 20_000, 25_000, 'the receiver away');
      expect(states).not.toContain('failed');
      expect(pusher.state).toBe('starting');
      expect(pusher.error).toBe('broadcasts.destination_unreachable');
      receiver.start();
      await waitFor(() => pusher.state === 'live', 20_000, 'live once the receiver is back');
      await waitFor(() => receiver.bytes() > 0, 10_000, 'bytes at the receiver');
    } finally {
      source.kill('SIGKILL');
      await pusher.stop();
      flv.stop();
      await receiver.stop();
      ledger.killAll();
    }
  }, 60_000);

  it('fails a destination the server refuses (its key is taken), with that reason, and stops trying', async () => {
    const ledger = new ProcessLedger(folder, 'refused');
    const nginx = await new NginxRtmp(await freePort(), join(folder, 'nginx-refused')).start();
    const url = `rtmp://127.0.0.1:${nginx.port}/live/taken-${process.pid}`;
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const holder = new Pusher(
      flv,
      url,
      () => 30,
      () => undefined,
      { backoff: { firstMs: 250, maxMs: 250 } },
    );
    const refused = new Pusher(
      flv,
      url,
      () => 30,
      () => undefined,
      { backoff: { firstMs: 250, maxMs: 250 } },
    );
    const source = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
    );
    try {
      holder.start();
      await waitFor(() => holder.state === 'live', 20_000, 'the first live');
      refused.start();
      await waitFor(() => refused.state === 'failed', 20_000, 'the second failed');
      expect(refused.error).toBe('broadcasts.destination_refused');
      // No attempt after the refusal: it stays failed while the first goes on.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(refused.state).toBe('failed');
      expect(holder.state).toBe('live');
    } finally {
      source.kill('SIGKILL');
      await Promise.all([holder.stop(), refused.stop()]);
      flv.stop();
      await nginx.stop();
      ledger.killAll();
    }
  }, 60_000);

  it('never pushes sound alone when its probe saw no picture: it fails, and the next attempt probes longer', () => {
    // An encode whose first pictures come a second after its sound (a busy machine's first seconds).
    const lateVideo = join(folder, 'late-video.ts');
    const made = spawnSync('ffmpeg', [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-itsoffset',
        '1',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x180:rate=30',
      ],
      ...['-f', 'lavfi', '-i', 'sine', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac'],
      ...['-f', 'mpegts', lateVideo],
    ]);
    expect(made.status).toBe(0);
    const pushed = join(folder, 'pushed.flv');
    /** The encode's bytes through a pusher's reading of them, probing `seconds`, into an FLV file. */
    const push = (seconds: number) =>
      spawnSync('sh', [
        '-c',
        `cat "$0" | ffmpeg "$@"`,
        lateVideo,
        ...copyFromEncodeProbing(seconds),
        '-y',
        '-f',
        'flv',
        pushed,
      ]);
    const firstAttempt = push(0.3);
    expect(firstAttempt.status).not.toBe(0);
    expect(firstAttempt.stderr.toString()).toMatch(/dimensions not set/);
    const retry = push(3);
    expect(retry.status).toBe(0);
    const streams = spawnSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type',
      '-of',
      'csv=p=0',
      pushed,
    ]);
    expect(streams.stdout.toString().split('\n').filter(Boolean).sort()).toEqual(['audio', 'video']);
  });
});
