export interface FlvTag {
  /** 8 audio, 9 video, 18 script data (onMetaData). */
  type: 8 | 9 | 18;
  /** Milliseconds, on the encoder's clock (monotonic across encoder restarts, see Encoder). */
  timestamp: number;
  body: Buffer;
  /** Bumped each time the encoder starts again: the stream starts again at a keyframe with new headers. */
  generation: number;
  isKeyframe: boolean;
  /** The metadata or a sequence header: what a player needs before any frame. */
  isHeader: boolean;
}
type FlvSink = (tag: FlvTag) => void;

/** A keyframe comes every second: more than this since the last one means something is wrong; stop keeping. */
const MAX_KEPT_TAGS = 5000;
const FLV_HEADER_BYTES = 9 + 4;
const TAG_HEADER_BYTES = 11;

/**
 * The encode as FLV tags, for the destinations. The encoder writes FLV itself, beside its MPEG-TS
 * (one encode, two muxers, ADR 021): no remux probes the stream, so nothing fails on parameters it
 * has not seen yet. The metadata, both sequence headers and the tags since the last keyframe are
 * kept aside, so that a destination connecting at any time starts with everything a player needs,
 * at a keyframe (ADR 019 for the publishing).
 */
export class FlvFanOut {
  private generation = 0;
  private pending: Buffer = Buffer.alloc(0);
  private hasHeader = false;
  private metadata: FlvTag | undefined;
  private videoHeader: FlvTag | undefined;
  private audioHeader: FlvTag | undefined;
  private gop: FlvTag[] = [];
  private readonly sinks = new Set<FlvSink>();
  private readyWaiters: (() => void)[] = [];
  private isStopped = false;

  /** Headers and a keyframe are there: a destination connecting now starts with media. */
  get isReady() {
    return this.videoHeader !== undefined && this.gop.length > 0;
  }

  /** Calls `callback` once the fan-out is ready (at once if it is). */
  whenReady(callback: () => void) {
    if (this.isReady) callback();
    else if (!this.isStopped) this.readyWaiters.push(callback);
    return () => {
      this.readyWaiters = this.readyWaiters.filter((waiter) => waiter !== callback);
    };
  }

  /** Adds a destination: it gets metadata, sequence headers and the tags since the last keyframe, then every new tag. */
  add(sink: FlvSink) {
    for (const tag of this.startingPoint()) sink(tag);
    if (!this.isStopped) this.sinks.add(sink);
    return () => {
      this.sinks.delete(sink);
    };
  }

  private startingPoint(): FlvTag[] {
    if (!this.isReady) return [];
    return [this.metadata, this.videoHeader, this.audioHeader, ...this.gop].filter((tag) => tag !== undefined);
  }

  /** A new encoder started: its FLV begins with a file header of its own and new sequence headers. */
  newStream() {
    this.generation += 1;
    this.pending = Buffer.alloc(0);
    this.hasHeader = false;
    this.metadata = undefined;
    this.videoHeader = undefined;
    this.audioHeader = undefined;
    this.gop = [];
  }

  /** The encoder's FLV bytes, in any chunking. */
  write(chunk: Buffer) {
    if (!this.isStopped) this.read(chunk);
  }

  private read(chunk: Buffer) {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.hasHeader) {
      if (this.pending.length < FLV_HEADER_BYTES) return;
      this.pending = this.pending.subarray(FLV_HEADER_BYTES);
      this.hasHeader = true;
    }
    while (this.pending.length >= TAG_HEADER_BYTES) {
      const size = this.pending.readUIntBE(1, 3);
      const end = TAG_HEADER_BYTES + size + 4;
      if (this.pending.length < end) break;
      const type = this.pending[0]! & 0x1f;
      const timestamp = (this.pending.readUIntBE(4, 3) | (this.pending[7]! << 24)) >>> 0;
      const body = Buffer.from(this.pending.subarray(TAG_HEADER_BYTES, TAG_HEADER_BYTES + size));
      this.pending = this.pending.subarray(end);
      if (type === 8 || type === 9 || type === 18) this.onTag(type, timestamp, body);
    }
  }

  private onTag(type: 8 | 9 | 18, timestamp: number, body: Buffer) {
    // Video: frame type in the high nibble (1 = key), codec 7 (AVC) below, then the AVC packet type
    // (0 = sequence header). Audio: format 10 (AAC) in the high nibble, then the AAC packet type.
    const codec = type === 9 ? body[0]! & 0x0f : body[0]! >> 4;
    const isSequenceHeader =
      body.length > 1 && body[1] === 0 && ((type === 9 && codec === 7) || (type === 8 && codec === 10));
    const isKeyframe = type === 9 && !isSequenceHeader && body[0]! >> 4 === 1;
    const isHeader = type === 18 || isSequenceHeader;
    const tag: FlvTag = { type, timestamp, body, generation: this.generation, isKeyframe, isHeader };
    if (type === 18) this.metadata = tag;
    else if (isSequenceHeader && type === 9) this.videoHeader = tag;
    else if (isSequenceHeader) this.audioHeader = tag;
    else if (isKeyframe) this.gop = [tag];
    else if (this.gop.length > 0) this.gop.push(tag);
    if (this.gop.length > MAX_KEPT_TAGS) this.gop = [];
    for (const sink of this.sinks) sink(tag);
    if (this.isReady && this.readyWaiters.length > 0) {
      const waiters = this.readyWaiters;
      this.readyWaiters = [];
      for (const waiter of waiters) waiter();
    }
  }

  stop() {
    this.isStopped = true;
    this.sinks.clear();
    this.readyWaiters = [];
  }
}
