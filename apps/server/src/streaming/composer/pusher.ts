import { EventEmitter } from 'node:events';
import { registerSecret } from '../../platform/log-redaction.js';
import type { FlvFanOut, FlvTag } from './flv-fan-out.js';
import {
  RtmpPublisher,
  RtmpRefusedError,
  splitIngestUrl,
  type PublisherOptions,
  type RtmpPublishError,
} from './rtmp/rtmp-publisher.js';
import { backoffDelay, type BackoffSchedule } from '../../platform/backoff.js';

export type PusherState = 'starting' | 'live' | 'reconnecting' | 'failed' | 'ended';
type Trouble = 'stalled' | 'unreachable' | 'refused';

/** Bytes a destination may fall behind (about 10 s at 3 Mbit/s) before it is reconnected instead of waited for. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** No bytes out for this long while the encode runs: the receiver is gone even if TCP has not said so. */
const STALL_MS = 4000;
/** A new attempt waits for the remux, resolves, connects and shakes hands first: it gets longer. */
const FIRST_BYTES_MS = 12_000;
const SAMPLE_EVERY_MS = 500;
/** Waits between attempts: a destination retries at least every 30 s for as long as the broadcast runs. */
const BACKOFF: BackoffSchedule = { firstMs: 1000, maxMs: 30_000 };
/** A new remux's clock starts again: its first keyframe follows the last frame sent by about this much. */
const REBASE_GAP_MS = 40;

const ERROR_KEYS: Record<Trouble, string> = {
  stalled: 'broadcasts.destination_stalled',
  unreachable: 'broadcasts.destination_unreachable',
  refused: 'broadcasts.destination_refused',
};

export interface PusherOptions extends PublisherOptions {
  /** Waits between attempts (a test's shorter ones). */
  backoff?: BackoffSchedule;
}

export interface PusherFigures {
  bitrateKbps: number | null;
  fps: number | null;
}

/**
 * One destination of the encode: this process publishes the shared FLV remux over RTMP(S) itself
 * (ADR 019), so the stream key is in no command line. It never slows the encoder: bytes a receiver
 * does not take are not queued past a limit, the connection is dropped and made again with backoff
 * (1 s to 30 s) instead, for as long as the broadcast runs, whether it was ever live or not (a receiver
 * down for minutes is pushed to again once it is back). It fails only when the server says no (a
 * refused key or publication), which retrying cannot mend; a server not there is no such answer.
 */
export class Pusher extends EventEmitter<{ state: [PusherState, string | null] }> {
  private publisher: RtmpPublisher | undefined;
  state: PusherState = 'starting';
  error: string | null = null;
  private attempt = 0;
  private hasBeenLive = false;
  private lastBytes = 0;
  private lastBytesAt = Date.now();
  private firstBytesAt: number | undefined;
  private byteSamples: { at: number; bytes: number }[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private sampleTimer: ReturnType<typeof setInterval> | undefined;
  private isEnded = false;
  figures: PusherFigures = { bitrateKbps: null, fps: null };
  private stopWaiting: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  /** The remux clock's reading that is 0 on this connection, and which remux it belongs to. */
  private clock: { base: number; generation: number } | undefined;
  private lastTimestamp = 0;
  /** Until the destination ends, its key is replaced wherever a log line would show it. */
  private readonly forgetKey: () => void;

  constructor(
    private readonly source: FlvFanOut,
    private readonly url: string,
    /** The encoder's frame rate, reported as this destination's while it is live. */
    private readonly encoderFps: () => number,
    private readonly log: (message: string) => void,
    private readonly options: PusherOptions = {},
  ) {
    super();
    let key = '';
    try {
      key = splitIngestUrl(url).streamName;
    } catch {
      // Not an RTMP address: the first attempt reports it as refused.
    }
    this.forgetKey = registerSecret(key);
  }

  start() {
    if (this.isEnded) return;
    this.lastBytes = 0;
    this.lastBytesAt = Date.now();
    this.firstBytesAt = undefined;
    this.byteSamples = [];
    this.sampleTimer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    this.sampleTimer.unref();
    // Connect once the remux has headers and a keyframe: the platform's first connection carries media.
    this.stopWaiting = this.source.whenReady(() => this.connect());
  }

  private connect() {
    let publisher: RtmpPublisher;
    try {
      publisher = new RtmpPublisher(this.url, this.options);
    } catch (error) {
      this.log(`pusher: ${error instanceof Error ? error.message : 'no publisher'}`);
      void this.restart('refused');
      return;
    }
    this.publisher = publisher;
    publisher.publish().then(
      () => {
        if (this.publisher !== publisher) return;
        this.log(`pusher: publishing to ${publisher.where}`);
        publisher.once('closed', (error) => {
          if (this.publisher !== publisher) return;
          this.log(`pusher: connection ended: ${error?.message ?? 'closed'}`);
          void this.restart(troubleOf(error));
        });
        this.clock = undefined;
        this.lastTimestamp = 0;
        // Each connection starts at the remux's latest keyframe, with the headers before it.
        this.unsubscribe = this.source.add((tag) => this.write(publisher, tag));
      },
      (error: RtmpPublishError) => {
        if (this.publisher !== publisher) return;
        this.log(`pusher: ${error.message}`);
        void this.restart(troubleOf(error));
      },
    );
  }

  /** The remux's next tag; dropped (and the connection made again) when this destination cannot keep up. */
  private write(publisher: RtmpPublisher, tag: FlvTag) {
    if (publisher.queuedBytes > MAX_BACKLOG_BYTES) {
      void this.restart('stalled');
      return;
    }
    // Metadata and sequence headers (a new connection's, a new remux's) go out at once, at the current time.
    if (tag.isHeader) {
      publisher.sendMedia(tag.type, this.lastTimestamp, tag.body);
      return;
    }
    if (this.clock?.generation !== tag.generation) {
      // A new connection, or a new remux and its new clock: media starts again at a keyframe.
      if (!tag.isKeyframe) return;
      const gap = this.clock ? this.lastTimestamp + REBASE_GAP_MS : 0;
      this.clock = { base: tag.timestamp - gap, generation: tag.generation };
    }
    const timestamp = Math.max(0, tag.timestamp - this.clock.base);
    this.lastTimestamp = Math.max(this.lastTimestamp, timestamp);
    publisher.sendMedia(tag.type, timestamp, tag.body);
  }

  /** Bytes out since the last look: figures, the first-bytes mark and "live", or a stall. */
  private sample() {
    const now = Date.now();
    const sent = this.publisher?.sentBytes ?? 0;
    if (sent > this.lastBytes) {
      this.lastBytes = sent;
      this.lastBytesAt = now;
      this.byteSamples.push({ at: now, bytes: sent });
      this.byteSamples = this.byteSamples.filter((sample) => now - sample.at <= 5000);
      const first = this.byteSamples[0]!;
      const seconds = (now - first.at) / 1000;
      if (seconds >= 1) {
        this.figures = {
          bitrateKbps: Math.round(((sent - first.bytes) * 8) / 1000 / seconds),
          fps: Math.round(this.encoderFps()),
        };
      }
      if (this.clock && this.firstBytesAt === undefined) {
        this.log('pusher: first bytes out');
        this.firstBytesAt = now;
      }
      // Bytes still leaving a second after the first media did: the receiver took the stream, not just the handshake.
      if (this.firstBytesAt !== undefined && this.state !== 'live' && now - this.firstBytesAt >= 1000) {
        this.hasBeenLive = true;
        this.attempt = 0;
        this.setState('live', null);
      }
    }
    // Waiting for the remux's headers and keyframe (a remux that failed its probe on a busy machine
    // starts again) is not this destination's fault: its clock starts when it connects.
    if (!this.publisher) this.lastBytesAt = now;
    const limit = this.firstBytesAt === undefined ? FIRST_BYTES_MS : STALL_MS;
    // Bytes may still leave into the kernel's buffers (megabytes on a fast link) for a long while after
    // a receiver stopped reading; one that has shown it acknowledges tells sooner, by an overdue one.
    if (now - this.lastBytesAt > limit || this.publisher?.isAcknowledgementOverdue(STALL_MS))
      void this.restart('stalled');
  }

  private setState(state: PusherState, error: string | null) {
    if (this.state === state && this.error === error) return;
    this.state = state;
    this.error = error;
    if (state !== 'live') this.figures = { bitrateKbps: null, fps: null };
    this.emit('state', state, error);
  }

  private drop() {
    const publisher = this.publisher;
    this.publisher = undefined;
    this.stopWaiting?.();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.sampleTimer);
    return publisher;
  }

  private async restart(trouble: Trouble) {
    if (this.isEnded || !this.sampleTimer) return;
    const publisher = this.drop();
    this.sampleTimer = undefined;
    if (trouble === 'stalled') this.log('pusher restarted: stalled');
    publisher?.destroy();
    await Promise.resolve();
    this.scheduleRestart(trouble);
  }

  private scheduleRestart(trouble: Trouble) {
    if (this.isEnded) return;
    if (trouble === 'refused') {
      this.isEnded = true;
      this.forgetKey();
      this.setState('failed', ERROR_KEYS.refused);
      return;
    }
    this.attempt += 1;
    this.setState(this.hasBeenLive ? 'reconnecting' : 'starting', ERROR_KEYS[trouble]);
    const delay = backoffDelay(this.attempt, this.options.backoff ?? BACKOFF);
    this.restartTimer = setTimeout(() => this.start(), delay);
    this.restartTimer.unref();
  }

  async stop() {
    this.isEnded = true;
    clearTimeout(this.restartTimer);
    const publisher = this.drop();
    await publisher?.close();
    this.forgetKey();
    // A refused destination stays failed: ending the broadcast does not hide why it never went out.
    if (this.state !== 'failed') this.setState('ended', null);
  }
}

function troubleOf(error: RtmpPublishError | undefined): Trouble {
  return error instanceof RtmpRefusedError ? 'refused' : 'unreachable';
}
