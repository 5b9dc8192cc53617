/** RTMP message types this client sends or reads. */
export const MessageType = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  data: 18,
  command: 20,
} as const;

export interface RtmpMessage {
  type: number;
  streamId: number;
  timestamp: number;
  payload: Buffer;
}

/** 0xFFFFFF and above are carried in the extended timestamp field (a broadcast past 4.6 hours). */
const EXTENDED = 0xffffff;

/**
 * Cuts messages into chunks. Every message starts with a full (type 0) header, so no chunk stream
 * depends on the one before: 11 bytes a message is nothing beside a video frame, and a message can
 * never be misread after a dropped one.
 */
export function encodeChunks(message: RtmpMessage, chunkStreamId: number, chunkSize: number): Buffer {
  const { payload, timestamp } = message;
  const isExtended = timestamp >= EXTENDED;
  const header = Buffer.alloc(1 + 11 + (isExtended ? 4 : 0));
  header[0] = chunkStreamId & 0x3f;
  header.writeUIntBE(isExtended ? EXTENDED : timestamp, 1, 3);
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = message.type;
  header.writeUInt32LE(message.streamId, 8);
  if (isExtended) header.writeUInt32BE(timestamp >>> 0, 12);
  const parts: Buffer[] = [header];
  for (let at = 0; at < payload.length; at += chunkSize) {
    if (at > 0) {
      const continuation = Buffer.alloc(1 + (isExtended ? 4 : 0));
      continuation[0] = 0xc0 | (chunkStreamId & 0x3f);
      if (isExtended) continuation.writeUInt32BE(timestamp >>> 0, 1);
      parts.push(continuation);
    }
    parts.push(payload.subarray(at, at + chunkSize));
  }
  return Buffer.concat(parts);
}

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  isExtended: boolean;
  parts: Buffer[];
  received: number;
}

/** Reassembles the server's chunks (all four header types, any chunk size it sets) into messages. */
export class ChunkReader {
  private pending: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, ChunkStreamState>();
  chunkSize = 128;

  constructor(private readonly onMessage: (message: RtmpMessage) => void) {}

  push(data: Buffer) {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    for (;;) {
      const used = this.readChunk(this.pending);
      if (used === 0) break;
      this.pending = this.pending.subarray(used);
    }
  }

  /** Reads one chunk at the start of `data`; 0 when it is not all there yet. */
  private readChunk(data: Buffer): number {
    if (data.length < 1) return 0;
    const format = data[0]! >> 6;
    let chunkStreamId = data[0]! & 0x3f;
    let at = 1;
    if (chunkStreamId === 0) {
      if (data.length < 2) return 0;
      chunkStreamId = 64 + data[1]!;
      at = 2;
    } else if (chunkStreamId === 1) {
      if (data.length < 3) return 0;
      chunkStreamId = 64 + data[1]! + data[2]! * 256;
      at = 3;
    }
    const headerLength = [11, 7, 3, 0][format]!;
    if (data.length < at + headerLength) return 0;
    const previous = this.streams.get(chunkStreamId);
    const state: ChunkStreamState = previous
      ? { ...previous }
      : { timestamp: 0, delta: 0, length: 0, type: 0, streamId: 0, isExtended: false, parts: [], received: 0 };
    const isNewMessage = !previous || previous.received === 0 || previous.received >= previous.length;
    let field = 0;
    if (format <= 2) {
      field = data.readUIntBE(at, 3);
      state.isExtended = field === EXTENDED;
    }
    if (format <= 1) {
      state.length = data.readUIntBE(at + 3, 3);
      state.type = data[at + 6]!;
    }
    if (format === 0) state.streamId = data.readUInt32LE(at + 7);
    at += headerLength;
    if (state.isExtended) {
      // The real value follows the header; type 3 chunks repeat it.
      if (data.length < at + 4) return 0;
      if (format <= 2) field = data.readUInt32BE(at);
      at += 4;
    }
    if (isNewMessage) {
      if (format === 0) state.timestamp = field;
      else if (format <= 2) {
        state.delta = field;
        state.timestamp += field;
      } else {
        state.timestamp += state.delta;
      }
      state.parts = [];
      state.received = 0;
    }
    const size = Math.min(this.chunkSize, state.length - state.received);
    if (data.length < at + size) return 0;
    state.parts = [...state.parts, data.subarray(at, at + size)];
    state.received += size;
    this.streams.set(chunkStreamId, state);
    if (state.received >= state.length) {
      const payload = Buffer.concat(state.parts);
      state.parts = [];
      if (state.type === MessageType.setChunkSize) this.chunkSize = payload.readUInt32BE(0) & 0x7fffffff;
      this.onMessage({ type: state.type, streamId: state.streamId, timestamp: state.timestamp, payload });
    }
    return at + size;
  }
}
