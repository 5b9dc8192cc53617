import type { ChildProcess } from 'node:child_process';
import { stopChild, type ProcessLedger } from './child-processes.js';
import { copyFromEncodeProbing, keepTail } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';

export interface FlvTag {
  /** 8 audio, 9 video, 18 script data (onMetaData). */
  type: 8 | 9 | 18;
  /** Milliseconds, on the remux's clock. */
  timestamp: number;
  body: Buffer;
  /** Bumped each time the remux starts again: its clock starts again too. */
  generation: number;
  isKeyframe: boolean;
  /** The metadata or a sequence header: what a player needs before any frame. */
  isHeader: boolean;
}
type FlvSink = (tag: FlvTag) => void;

/** Measured on a pipe (ADR 014): the first bytes leave 0.15–0.35 s after the encode's with 0.1–0.3 s. */
const FIRST_PROBE_S = 0.3;
/** A keyframe comes every second: more than this since the last one means something is wrong; stop keeping. */
const MAX_KEPT_TAGS = 5000;
const FLV_HEADER_BYTES = 9 + 4;
const TAG_HEADER_BYTES = 11;

/**
 * The encode as FLV tags, for the destinations: ONE `ffmpeg -c copy` remuxes the encode's MPEG-TS
 * to FLV on a pipe (no address on its command line: the server publishes RTMP itself, ADR 019). The
 * metadata, both sequence headers and the tags since the last keyframe are kept aside, so that a
 * destination connecting at any time starts with everything a player needs, at a keyframe.
 */
export class FlvFanOut {
  private child: ChildProcess | undefined;
  private attempt = 0;
  private generation = 0;
  private pending: Buffer = Buffer.alloc(0);
  private hasHeader = false;
  private metadata: FlvTag | undefined;
  private videoHeader: FlvTag | undefined;
  private audioHeader: FlvTag | undefined;
  private gop: FlvTag[] = [];
  private readonly sinks = new Set<FlvSink>();
  private readyWaiters: (() => void)[] = [];
  private unsubscribe: (() => void) | undefined;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private isStopped = false;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    private readonly log: (message: string) => void,
  ) {}

  /** Headers and a keyframe are there: a destination connecting now starts with media. */
  get isReady() {
    return this.videoHeader !== undefined && this.gop.length > 0;
  }

  /** Calls `callback` once the fan-out is ready (at once if it is); starts the remux on first use. */
  whenReady(callback: () => void) {
    this.ensureStarted();
    if (this.isReady) callback();
    else this.readyWaiters.push(callback);
    return () => {
      this.readyWaiters = this.readyWaiters.filter((waiter) => waiter !== callback);
    };
  }

  /** Adds a destination: it gets metadata, sequence headers and the tags since the last keyframe, then every new tag. */
  add(sink: FlvSink) {
    this.ensureStarted();
    for (const tag of this.startingPoint()) sink(tag);
    this.sinks.add(sink);
    return () => {
      this.sinks.delete(sink);
    };
  }

  private startingPoint(): FlvTag[] {
    if (!this.isReady) return [];
    return [this.metadata, this.videoHeader, this.audioHeader, ...this.gop].filter((tag) => tag !== undefined);
  }

  private ensureStarted() {
    if (this.child || this.restartTimer || this.isStopped) return;
    this.start();
  }

  private start() {
    this.restartTimer = undefined;
    if (this.isStopped) return;
    const child = this.ledger.spawn(
      'ffmpeg',
      [
        // The first remux probes 0.3 s: it is on the path of "Go live" to the first bytes; a later
        // one probes 3 s, so that an encode slow to show its picture's size does not fail it again.
        ...copyFromEncodeProbing(this.attempt === 0 ? FIRST_PROBE_S : 3),
        // Each tag leaves as soon as it is muxed, not when ffmpeg's 32 KB pipe buffer fills.
        '-flush_packets',
        '1',
        ...['-f', 'flv', '-flvflags', 'no_duration_filesize', 'pipe:1'],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.generation += 1;
    this.pending = Buffer.alloc(0);
    this.hasHeader = false;
    this.metadata = undefined;
    this.videoHeader = undefined;
    this.audioHeader = undefined;
    this.gop = [];
    child.stdin?.on('error', () => undefined);
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    const tail = keepTail(child.stderr);
    this.unsubscribe?.();
    this.unsubscribe = this.source.add((chunk) => {
      if (child.stdin?.writable) child.stdin.write(chunk);
    });
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.unsubscribe?.();
      if (this.isStopped) return;
      this.log(`remux exited (${code ?? signal}): ${tail()}`);
      this.attempt += 1;
      // The first failure is most often the short probe's ("dimensions not set"): try again at once,
      // with the longer one; after that, a second apart.
      this.restartTimer = setTimeout(() => this.start(), this.attempt === 1 ? 0 : 1000);
      this.restartTimer.unref();
    });
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

  async stop() {
    this.isStopped = true;
    clearTimeout(this.restartTimer);
    this.unsubscribe?.();
    this.sinks.clear();
    this.readyWaiters = [];
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
    await stopChild(child, 2000);
  }
}
