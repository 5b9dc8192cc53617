import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../media/managed-janus.js';
import { REDACTING_LOG_HOOKS, redactSecrets, registerSecret } from '../../platform/log-redaction.js';
import { RtmpReceiver } from '@meetcast/testkit/rtmp-receiver';
import { testEncode } from '../../../test/streaming/test-encode.js';
import { ProcessLedger, waitFor } from './child-processes.js';
import { FlvFanOut } from './flv-fan-out.js';
import { MediaFanOut } from './media-fan-out.js';
import { Pusher } from './pusher.js';

const folder = mkdtempSync(join(tmpdir(), 'meetcast-key-logs-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A logger set up as the server's (app.ts), writing into a string. */
function capturedLogger() {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: pino({ level: 'info', hooks: REDACTING_LOG_HOOKS }, sink), text: () => text };
}

describe('stream keys in log lines', () => {
  it('go live, lose the receiver, reconnect: no line of the log shows the key', async () => {
    const key = `live_${randomBytes(10).toString('hex')}`;
    const { logger, text } = capturedLogger();
    const receiver = new RtmpReceiver(await freePort(), 'live/any', join(folder, 'reset')).start();
    const ledger = new ProcessLedger(folder, 'reset');
    const fanOut = new MediaFanOut();
    // Logged the way the broadcast session logs its pushers and remux.
    const log = (message: string) => logger.info({ broadcastId: 1, destinationId: 1 }, `composer: ${message}`);
    const flv = new FlvFanOut();
    const url = `rtmp://127.0.0.1:${receiver.port}/live/${key}`;
    const pusher = new Pusher(flv, url, () => 30, log);
    const source = testEncode(
      (chunk) => fanOut.write(chunk),
      (chunk) => flv.write(chunk),
    );
    try {
      pusher.start();
      await waitFor(() => pusher.state === 'live', 20_000, 'live');
      receiver.kill();
      await waitFor(() => pusher.state === 'reconnecting', 10_000, 'reconnecting after the reset');
      receiver.start();
      await waitFor(() => pusher.state === 'live', 20_000, 'live again');
      // What else may carry the address: an error of a platform call, a program's stderr quoted in a line.
      logger.error({ err: new Error(`publish to ${url} failed`) }, `ffmpeg said: ${url}: Connection reset by peer`);
      logger.warn({ destination: { ingest: url } }, `bare key ${key} and https://ingest.example.com/app/${key}?sig=1`);
    } finally {
      source.kill('SIGKILL');
      await pusher.stop();
      flv.stop();
      await receiver.stop();
      ledger.killAll();
    }
    const lines = text();
    expect(lines).toContain('connection ended');
    expect(lines).toContain('Connection reset by peer');
    expect(lines).toContain(`rtmp://127.0.0.1:${receiver.port}/[redacted]`);
    expect(lines).toContain('https://ingest.example.com/[redacted]');
    expect(lines).not.toContain(key);
    expect(lines).not.toContain('/live/');
  }, 60_000);

  it('keeps what a line needs: the host of an address, words that only look like a short key', () => {
    const forget = registerSecret('abcdef123');
    try {
      expect(redactSecrets('to rtmps://user:pass@live.example.com:443/app/abcdef123?x=1 done')).toBe(
        'to rtmps://live.example.com:443/[redacted] done',
      );
      expect(redactSecrets('{"msg":"abcdef123 at http://127.0.0.1:3000/"}')).toBe(
        '{"msg":"[redacted] at http://127.0.0.1:3000/"}',
      );
      expect(registerSecret('abc')).toBeTypeOf('function');
      expect(redactSecrets('abc stays')).toBe('abc stays');
    } finally {
      forget();
    }
    expect(redactSecrets('abcdef123')).toBe('abcdef123');
  });
});
