import { spawn } from 'node:child_process';
import type { MessageKey } from '../i18n/messages.js';
import { AddressRefusedError, type ConnectTarget } from '../platform/address-policy.js';
import { stopChild } from '../platform/managed-child.js';
import { RtmpPublisher, RtmpRefusedError, type RtmpPublishError } from './composer/rtmp/rtmp-publisher.js';

/** What a test push found: it worked, or the message key of why not. */
export type TestPushOutcome = { worked: true } | { worked: false; reason: MessageKey };

export interface TestPushOptions {
  connectTarget: ConnectTarget;
  /** Connect, handshake and publish must be done within this. */
  connectTimeoutMs?: number;
  /** How long the generated test pattern plays once the server took the stream. */
  seconds?: number;
}

const FLV_HEADER_BYTES = 9 + 4;
const TAG_HEADER_BYTES = 11;

/**
 * A short real publish to a saved address, as going live would make it: the same RTMP client, the
 * same address policy at connect time, then a few seconds of ffmpeg's test pattern (H.264 + AAC in
 * FLV) sent as media, then a polite end of stream. A receiver that takes the publish but drops the
 * connection during the media fails the test too.
 */
export async function testPush(ingestUrl: string, options: TestPushOptions): Promise<TestPushOutcome> {
  const publisher = new RtmpPublisher(ingestUrl, {
    connectTarget: options.connectTarget,
    timeoutMs: options.connectTimeoutMs ?? 10_000,
  });
  try {
    await publisher.publish();
  } catch (error) {
    return { worked: false, reason: explainPublishFailure(error) };
  }
  const dropped = new Promise<RtmpPublishError>((resolve) => {
    publisher.once('closed', (error) => {
      if (error) resolve(error);
    });
  });
  const sent = sendTestPattern(publisher, options.seconds ?? 3);
  const first = await Promise.race([sent.then(() => undefined), dropped]);
  if (first) {
    await sent.stop();
    return { worked: false, reason: 'stream_connections.test_dropped' };
  }
  await publisher.close();
  return { worked: true };
}

/** ffmpeg plays the pattern in real time (-re) to stdout as FLV; each tag goes out as an RTMP message. */
function sendTestPattern(publisher: RtmpPublisher, seconds: number) {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc=size=640x360:rate=30:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-flush_packets', '1', '-f', 'flv', '-flvflags', 'no_duration_filesize', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let pending = Buffer.alloc(0);
  let hasHeader = false;
  child.stdout.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    if (!hasHeader) {
      if (pending.length < FLV_HEADER_BYTES) return;
      pending = pending.subarray(FLV_HEADER_BYTES);
      hasHeader = true;
    }
    while (pending.length >= TAG_HEADER_BYTES) {
      const size = pending.readUIntBE(1, 3);
      if (pending.length < TAG_HEADER_BYTES + size + 4) return;
      const type = pending[0]! & 0x1f;
      const timestamp = pending.readUIntBE(4, 3) | (pending[7]! << 24);
      const body = pending.subarray(TAG_HEADER_BYTES, TAG_HEADER_BYTES + size);
      if (type === 8 || type === 9 || type === 18) publisher.sendMedia(type, timestamp, Buffer.from(body));
      pending = pending.subarray(TAG_HEADER_BYTES + size + 4);
    }
  });
  const ended = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  return Object.assign(ended, { stop: () => stopChild(child, 2000) });
}

/** The publisher's failure as a reason a person can act on; its messages never hold the key. */
export function explainPublishFailure(error: unknown): MessageKey {
  if (error instanceof AddressRefusedError) {
    return error.reason === 'unresolved'
      ? 'stream_connections.test_unresolved'
      : 'stream_connections.rtmp_address_inside';
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RtmpRefusedError) {
    return /BadName/i.test(message) ? 'stream_connections.test_bad_name' : 'stream_connections.test_refused';
  }
  if (/ECONNREFUSED/.test(message)) return 'stream_connections.test_port_closed';
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'stream_connections.test_unresolved';
  if (/certificate|SSL|TLS|altnames|wrong version number/i.test(message)) return 'stream_connections.test_tls';
  if (/no answer from/.test(message)) return 'stream_connections.test_timeout';
  return 'stream_connections.test_unreachable';
}
