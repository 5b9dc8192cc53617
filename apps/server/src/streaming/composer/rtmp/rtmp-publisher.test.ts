import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../media/managed-janus.js';
import {
  NginxRtmp,
  selfSignedCertificate,
  startSilentPort,
  startTlsProxy,
} from '../../../../test/streaming/rtmp-ingests.js';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { testEncode } from '../../../../test/streaming/test-encode.js';
import { ProcessLedger, waitFor } from '../child-processes.js';
import { FlvFanOut } from '../flv-fan-out.js';
import { MediaFanOut } from '../media-fan-out.js';
import { Pusher } from '../pusher.js';
import { RtmpPublisher, RtmpRefusedError, RtmpUnreachableError, type PublisherOptions } from './rtmp-publisher.js';

const folder = mkdtempSync(join(tmpdir(), 'meetcast-rtmp-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const newKey = () => `key-${randomBytes(12).toString('hex')}`;

/** The test encode, its one FLV remux, and a pusher per URL, all stopped by `end`. */
function broadcast(name: string) {
  const ledger = new ProcessLedger(folder, name);
  const fanOut = new MediaFanOut();
  const flv = new FlvFanOut();
  const source = testEncode(
    (chunk) => fanOut.write(chunk),
    (chunk) => flv.write(chunk),
  );
  const pushers: Pusher[] = [];
  const logged: string[] = [];
  return {
    ledger,
    logged,
    push(url: string, options: PublisherOptions = {}) {
      const pusher = new Pusher(
        flv,
        url,
        () => 30,
        (line) => logged.push(line),
        options,
      );
      pushers.push(pusher);
      pusher.start();
      return pusher;
    },
    async end() {
      await Promise.all(pushers.map((pusher) => pusher.stop()));
      source.kill('SIGKILL');
      flv.stop();
      ledger.killAll();
    },
  };
}

function probe(file: string) {
  const text = execFileSync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', file],
  ]).toString();
  const parsed: unknown = JSON.parse(text);
  const { streams = [], format } = parsed as { streams?: { codec_name: string }[]; format?: { duration?: string } };
  return { codecs: streams.map((stream) => stream.codec_name).sort(), duration: Number(format?.duration) };
}

/** Every process's command line on this machine that mentions `text`. */
function commandLinesWith(text: string) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')];
      } catch {
        return [];
      }
    })
    .filter((line) => line.includes(text));
}

describe('the server publishing RTMP itself (real ffmpeg and nginx-rtmp receivers)', () => {
  it('carries media on its first connection, and the key is in no command line and no log line', async () => {
    const key = newKey();
    // The receiver listens without the key in its own arguments: it accepts any stream name and says which.
    const receiver = new RtmpReceiver(await freePort(), 'live/any', join(folder, 'first')).start();
    const run = broadcast('first');
    try {
      const pusher = run.push(`rtmp://127.0.0.1:${receiver.port}/live/${key}`);
      await waitFor(() => pusher.state === 'live', 20_000, 'live');
      const liveAt = Date.now();
      expect(commandLinesWith(key)).toEqual([]);
      await waitFor(() => Date.now() - liveAt > 3000, 5000, 'three seconds live');
      const seconds = (Date.now() - liveAt) / 1000;
      await pusher.stop();
      // The clean end (FCUnpublish, deleteStream) lets the receiver close its file by itself.
      await waitFor(() => probe(`${join(folder, 'first')}-1.flv`).duration > 0, 10_000, 'the first file closed');
      const first = probe(`${join(folder, 'first')}-1.flv`);
      expect(first.codecs).toEqual(['aac', 'h264']);
      // A second (live) plus the three measured, plus at most the two-second group of pictures it started with.
      expect(first.duration).toBeGreaterThan(seconds);
      expect(first.duration).toBeLessThan(seconds + 1 + 2.5);
      expect(receiver.publishedPaths().stream).toBe(key);
      expect(run.logged.join('\n')).not.toContain(key);
      expect(run.logged.join('\n')).toContain(`rtmp://127.0.0.1:${receiver.port}/live`);
    } finally {
      await run.end();
      await receiver.stop();
    }
  }, 60_000);

  it('tells a refusal (the stream is already published) from an address where nothing answers', async () => {
    const nginx = await new NginxRtmp(await freePort(), join(folder, 'nginx')).start();
    const key = newKey();
    const url = `rtmp://127.0.0.1:${nginx.port}/live/${key}`;
    const run = broadcast('refusal');
    try {
      const first = run.push(url);
      await waitFor(() => first.state === 'live', 20_000, 'live at nginx-rtmp');
      const second = run.push(url);
      await waitFor(() => second.error !== null, 20_000, 'the second refused');
      expect(second.error).toBe('broadcasts.destination_refused');
      expect(first.state).toBe('live');
      const refused = await new RtmpPublisher(url).publish().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RtmpRefusedError);
      expect(String(refused)).toMatch(/NetStream\.Publish\.BadName/);
      expect(String(refused)).not.toContain(key);

      const nobody = await new RtmpPublisher(`rtmp://127.0.0.1:${await freePort()}/live/${key}`)
        .publish()
        .catch((error: unknown) => error);
      expect(nobody).toBeInstanceOf(RtmpUnreachableError);
      expect(String(nobody)).not.toContain(key);
      const silentPort = await freePort();
      const silent = await startSilentPort(silentPort);
      const hanging = await new RtmpPublisher(`rtmp://127.0.0.1:${silentPort}/live/${key}`, { timeoutMs: 1000 })
        .publish()
        .catch((error: unknown) => error);
      await silent.close();
      expect(hanging).toBeInstanceOf(RtmpUnreachableError);
      expect(String(hanging)).toMatch(/no answer/);
      expect(run.logged.join('\n')).not.toContain(key);
    } finally {
      await run.end();
      await nginx.stop();
    }
  }, 60_000);

  it('publishes over RTMPS, checking the certificate against the URL’s name, to the address it was given', async () => {
    const certificate = selfSignedCertificate(join(folder, 'tls'));
    const receiver = new RtmpReceiver(await freePort(), 'live/any', join(folder, 'secure')).start();
    const port = await freePort();
    const proxy = await startTlsProxy(port, receiver.port, certificate);
    const run = broadcast('secure');
    try {
      const asked: string[] = [];
      const options: PublisherOptions = {
        tls: { ca: certificate.cert },
        // The name is "localhost", the address the one the resolver chose: the certificate is checked against the name.
        connectTarget: async (url) => {
          asked.push(url.hostname);
          return { address: '127.0.0.1', port };
        },
      };
      const untrusted = await new RtmpPublisher(`rtmps://localhost:${port}/live/${newKey()}`, {
        connectTarget: options.connectTarget,
      })
        .publish()
        .catch((error: unknown) => error);
      expect(untrusted).toBeInstanceOf(RtmpUnreachableError);
      // Trusted, but not the name the certificate is for: refused to connect all the same.
      const otherName = await new RtmpPublisher(`rtmps://other.test:${port}/live/${newKey()}`, options)
        .publish()
        .catch((error: unknown) => error);
      expect(otherName).toBeInstanceOf(RtmpUnreachableError);
      expect(String(otherName)).toMatch(/other\.test/);
      const otherAddress = await new RtmpPublisher(`rtmps://127.0.0.2:${port}/live/${newKey()}`, options)
        .publish()
        .catch((error: unknown) => error);
      expect(String(otherAddress)).toMatch(/127\.0\.0\.2/);
      const pusher = run.push(`rtmps://localhost:${port}/live/${newKey()}`, options);
      await waitFor(() => pusher.state === 'live', 20_000, 'live over rtmps');
      await waitFor(() => receiver.bytes() > 100_000, 10_000, 'media through TLS');
      await pusher.stop();
      await waitFor(() => probe(receiver.largestFile).duration > 0, 10_000, 'the file closed');
      expect(probe(receiver.largestFile).codecs).toEqual(['aac', 'h264']);
      expect(asked).toContain('localhost');
      // An address in the URL is checked against the certificate's addresses (the receiver may be
      // starting again for its next publisher meanwhile: attempts until one gets through).
      await waitFor(
        async () => {
          const byAddress = new RtmpPublisher(`rtmps://127.0.0.1:${port}/live/${newKey()}`, { tls: options.tls });
          const published = await byAddress.publish().then(
            () => true,
            () => false,
          );
          await byAddress.close();
          return published;
        },
        30_000,
        'published to an address',
      );
    } finally {
      await run.end();
      await proxy.close();
      await receiver.stop();
    }
  }, 60_000);
});
