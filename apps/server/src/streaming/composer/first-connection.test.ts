import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { untilListening } from '@meetcast/testkit/rtmp-receiver';
import { freePort } from '../../media/managed-janus.js';
import { testEncode } from '../../../test/streaming/test-encode.js';
import { stopChild } from '../../platform/managed-child.js';
import { waitFor } from './child-processes.js';
import { FlvFanOut, type FlvTag } from './flv-fan-out.js';
import { MediaFanOut } from './media-fan-out.js';
import { ProcessLedger } from './child-processes.js';
import { Pusher } from './pusher.js';
import { Recorder } from './recorder.js';

const folder = mkdtempSync(join(tmpdir(), 'meetcast-first-connection-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const probe = (file: string) =>
  execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width', '-of', 'csv=p=0', file], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');

describe('the encode muxed as FLV beside MPEG-TS (ADR 021)', () => {
  it('carries H.264 and AAC on the first connection to a receiver that takes only one', async () => {
    const port = await freePort();
    const received = join(folder, 'once.flv');
    // Like `ffmpeg -listen 1` at a platform's stand-in: an aborted first connection loses it for good.
    const receiver = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live/once`],
        ...['-c', 'copy', '-f', 'flv', received],
      ],
      { stdio: 'ignore' },
    );
    const flv = new FlvFanOut();
    const errors: (string | null)[] = [];
    const pusher = new Pusher(
      flv,
      `rtmp://127.0.0.1:${port}/live/once`,
      () => 30,
      () => undefined,
    );
    pusher.on('state', (_state, error) => errors.push(error));
    const source = testEncode(
      () => undefined,
      (chunk) => flv.write(chunk),
    );
    try {
      // A connection refused because the receiver is not bound yet is not the aborted first push under test.
      await untilListening(port);
      pusher.start();
      await waitFor(() => pusher.state === 'live', 20_000, 'live');
      await waitFor(() => existsSync(received) && statSync(received).size > 100_000, 20_000, 'media received');
      // The first state is "live" with no error: no attempt was aborted before it.
      expect(errors).toEqual([null]);
    } finally {
      source.kill('SIGKILL');
      await pusher.stop();
      flv.stop();
      await stopChild(receiver, 5000, 'SIGINT');
    }
    expect(probe(received)).toEqual(['h264,640', 'aac']);
  }, 60_000);

  it('keeps one continuous recording and rising FLV timestamps when the encoder starts again', async () => {
    const ledger = new ProcessLedger(folder, 'restart');
    const fanOut = new MediaFanOut();
    const flv = new FlvFanOut();
    const tags: FlvTag[] = [];
    flv.whenReady(() => flv.add((tag) => tags.push(tag)));
    const logged: string[] = [];
    const file = join(folder, '9-0123456789abcdef0123456789abcdef.mp4');
    const recorder = new Recorder(ledger, fanOut, file, (line) => logged.push(line));
    recorder.start();
    const firstStartedAt = Date.now();
    const first = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
    );
    await waitFor(() => Date.now() - firstStartedAt > 4000, 6000, 'four seconds encoded');
    first.kill('SIGKILL');
    // As the session does: the next encoder continues the clock from the first one's start.
    flv.newStream();
    const second = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
      (Date.now() - firstStartedAt) / 1000,
    );
    const secondStartedAt = Date.now();
    try {
      await waitFor(() => Date.now() - secondStartedAt > 4000, 6000, 'four more seconds encoded');
    } finally {
      second.kill('SIGKILL');
    }
    const seconds = await recorder.finish();
    ledger.killAll();
    // One ffmpeg recorded both encoders: the second one's timestamps followed on.
    expect(logged.join('\n')).not.toContain('recorder exited');
    const media = tags.filter((tag) => !tag.isHeader);
    expect(new Set(media.map((tag) => tag.generation)).size).toBe(2);
    const secondStream = media.filter((tag) => tag.generation === media.at(-1)!.generation);
    const firstStream = media.filter((tag) => tag.generation !== secondStream[0]!.generation);
    expect(secondStream.find((tag) => tag.type === 9)?.isKeyframe).toBe(true);
    expect(secondStream[0]!.timestamp).toBeGreaterThan(Math.max(...firstStream.map((tag) => tag.timestamp)));
    // The recording spans both encoders' clock, from the first's first frame to the second's last.
    const spanS = (media.at(-1)!.timestamp - media[0]!.timestamp) / 1000;
    expect(spanS).toBeGreaterThan(5);
    expect(seconds).toBeGreaterThan(spanS - 1);
  }, 60_000);
});
