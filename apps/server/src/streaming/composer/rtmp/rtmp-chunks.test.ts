import { describe, expect, it } from 'vitest';
import { decodeAmf0, encodeAmf0 } from './amf0.js';
import { ChunkReader, encodeChunks, MessageType, type RtmpMessage } from './rtmp-chunks.js';

function readAll(bytes: Buffer, pieces = 7) {
  const messages: RtmpMessage[] = [];
  const reader = new ChunkReader((message) => messages.push(message));
  // Delivered in small, uneven pieces, as TCP may.
  for (let at = 0; at < bytes.length; at += pieces) reader.push(bytes.subarray(at, at + pieces));
  return messages;
}

describe('RTMP chunks and AMF0', () => {
  it('reads back a message cut into chunks, past the extended-timestamp limit too', () => {
    const payload = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
    const late = 0x1000000 + 5;
    const bytes = Buffer.concat([
      encodeChunks({ type: MessageType.video, streamId: 1, timestamp: 40, payload }, 6, 128),
      encodeChunks(
        { type: MessageType.audio, streamId: 1, timestamp: late, payload: payload.subarray(0, 300) },
        4,
        128,
      ),
    ]);
    const [video, audio] = readAll(bytes);
    expect(video).toMatchObject({ type: 9, streamId: 1, timestamp: 40 });
    expect(video?.payload.equals(payload)).toBe(true);
    expect(audio).toMatchObject({ type: 8, streamId: 1, timestamp: late });
    expect(audio?.payload.equals(payload.subarray(0, 300))).toBe(true);
  });

  it('follows the short headers a server sends: deltas (types 1 and 2), repeats (type 3), a new chunk size', () => {
    const body = encodeAmf0('_result', 1, null, { code: 'NetConnection.Connect.Success', level: 'status' });
    const setChunkSize = Buffer.from([0x02, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 0, 0x10, 0]);
    const full = Buffer.concat([Buffer.from([0x03, 0, 0, 10, 0, 0, body.length, 20, 0, 0, 0, 0]), body]);
    // Type 1: same stream, a delta of 5 and a new length; type 2: delta 7 only; type 3: all repeated.
    const small = encodeAmf0('onBWDone');
    const typeOne = Buffer.concat([Buffer.from([0x43, 0, 0, 5, 0, 0, small.length, 20]), small]);
    const typeTwo = Buffer.concat([Buffer.from([0x83, 0, 0, 7]), small]);
    const typeThree = Buffer.concat([Buffer.from([0xc3]), small]);
    const messages = readAll(Buffer.concat([setChunkSize, full, typeOne, typeTwo, typeThree]), 3);
    expect(messages.map((message) => message.timestamp)).toEqual([0, 10, 15, 22, 29]);
    expect(decodeAmf0(messages[1]!.payload)).toEqual([
      '_result',
      1,
      null,
      { code: 'NetConnection.Connect.Success', level: 'status' },
    ]);
    expect(decodeAmf0(messages[4]!.payload)).toEqual(['onBWDone']);
  });
});
