import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { stopChild, type ProcessLedger } from './child-processes.js';
import { copyFromEncodeProbing, keepTail, readProgress } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';

export type PusherState = 'starting' | 'live' | 'reconnecting' | 'failed' | 'ended';

/** Bytes a pusher may fall behind (about 10 s at 3 Mbit/s) before it is restarted instead of waited for. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** No bytes out for this long while the encode runs: the receiver is gone even if TCP has not said so. */
const STALL_MS = 4000;
/** A new attempt probes the stream and shakes hands first: it gets longer to send its first bytes. */
const FIRST_BYTES_MS = 12_000;
/** Measured on a pipe (ADR 014): the first bytes leave 0.15–0.35 s after the encode's with 0.1–0.3 s, 1.0 s with 1 s. */
const FIRST_PROBE_S = 0.3;
const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];
/** Attempts that never reached the receiver before a destination is called failed. */
const ATTEMPTS_BEFORE_FAILED = 5;

export interface PusherFigures {
  bitrateKbps: number | null;
  fps: number | null;
}

/**
 * One destination of the encode: an `ffmpeg -c copy` from MPEG-TS on stdin to an RTMP(S) address.
 * It never slows the encoder: bytes it cannot take are not queued past a limit, the process is
 * restarted with backoff (1 s to 30 s) instead. A destination that never connects fails after a
 * few attempts; one that was live keeps reconnecting until the broadcast ends.
 */
export class Pusher extends EventEmitter<{ state: [PusherState, string | null] }> {
  private child: ChildProcess | undefined;
  state: PusherState = 'starting';
  error: string | null = null;
  private attempt = 0;
  private hasBeenLive = false;
  private lastBytes = 0;
  private lastBytesAt = Date.now();
  private firstBytesAt: number | undefined;
  private byteSamples: { at: number; bytes: number }[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setInterval> | undefined;
  private isEnded = false;
  figures: PusherFigures = { bitrateKbps: null, fps: null };

  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    private readonly url: string,
    /** The encoder's frame rate, reported as this destination's while it is live. */
    private readonly encoderFps: () => number,
    private readonly log: (message: string) => void,
  ) {
    super();
  }

  start() {
    if (this.isEnded) return;
    const child = this.ledger.spawn(
      'ffmpeg',
      [
        // The first attempt probes 0.3 s: it is on the path of "Go live" to the first bytes, and it
        // starts at a keyframe whose parameters come first (the encode stamps its sound later, so
        // pictures lead). Later ones probe 3 s: should an encode on a busy machine not show its
        // video's parameters in time ("dimensions not set"), a retry must not fail the same way.
        ...copyFromEncodeProbing(this.attempt === 0 ? FIRST_PROBE_S : 3),
        '-f',
        'flv',
        '-flvflags',
        'no_duration_filesize',
        '-rw_timeout',
        '5000000',
        '-progress',
        'pipe:3',
        '-stats_period',
        '0.5',
        this.url,
      ],
      { stdio: ['pipe', 'ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.lastBytes = 0;
    this.lastBytesAt = Date.now();
    this.firstBytesAt = undefined;
    child.stdin?.on('error', () => undefined);
    // Each attempt starts at the encode's latest keyframe.
    this.unsubscribe?.();
    this.unsubscribe = this.source.add((chunk) => this.write(chunk));
    const tail = keepTail(child.stderr);
    readProgress(child.stdio[3] as Readable, (progress) => this.onProgress(progress.totalBytes));
    this.stallTimer = setInterval(() => {
      const limit = this.firstBytesAt === undefined ? FIRST_BYTES_MS : STALL_MS;
      if (Date.now() - this.lastBytesAt > limit) void this.restart('stalled');
    }, 1000);
    this.stallTimer.unref();
    child.once('exit', (code, signal) => {
      clearInterval(this.stallTimer);
      if (this.child !== child || this.isEnded) return;
      this.child = undefined;
      this.unsubscribe?.();
      this.log(`pusher exited (${code ?? signal}): ${tail()}`);
      this.scheduleRestart('unreachable');
    });
  }

  /** The encode's next bytes; dropped (and the process restarted) when this destination cannot keep up. */
  private write(chunk: Buffer) {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return;
    if (stdin.writableLength > MAX_BACKLOG_BYTES) {
      void this.restart('stalled');
      return;
    }
    stdin.write(chunk);
  }

  private onProgress(totalBytes: number) {
    const now = Date.now();
    if (totalBytes > this.lastBytes) {
      this.lastBytes = totalBytes;
      this.lastBytesAt = now;
      this.byteSamples.push({ at: now, bytes: totalBytes });
      this.byteSamples = this.byteSamples.filter((sample) => now - sample.at <= 5000);
      const first = this.byteSamples[0]!;
      const seconds = (now - first.at) / 1000;
      if (seconds >= 1) {
        this.figures = {
          bitrateKbps: Math.round(((totalBytes - first.bytes) * 8) / 1000 / seconds),
          fps: Math.round(this.encoderFps()),
        };
      }
      // Bytes still leaving a second after the first did: the receiver took the stream, not just the handshake.
      if (this.firstBytesAt === undefined) this.log('pusher: first bytes out');
      this.firstBytesAt ??= now;
      if (this.state !== 'live' && now - this.firstBytesAt >= 1000) {
        this.hasBeenLive = true;
        this.attempt = 0;
        this.setState('live', null);
      }
    }
  }

  private setState(state: PusherState, error: string | null) {
    if (this.state === state && this.error === error) return;
    this.state = state;
    this.error = error;
    if (state !== 'live') this.figures = { bitrateKbps: null, fps: null };
    this.emit('state', state, error);
  }

  private async restart(reason: 'stalled' | 'unreachable') {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.unsubscribe?.();
    clearInterval(this.stallTimer);
    this.log(`pusher restarted: ${reason}`);
    await stopChild(child, 1000, 'SIGKILL');
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: 'stalled' | 'unreachable') {
    if (this.isEnded) return;
    this.attempt += 1;
    if (!this.hasBeenLive && this.attempt >= ATTEMPTS_BEFORE_FAILED) {
      this.setState('failed', 'broadcasts.destination_unreachable');
      return;
    }
    this.setState(
      this.hasBeenLive ? 'reconnecting' : 'starting',
      reason === 'stalled' ? 'broadcasts.destination_stalled' : 'broadcasts.destination_unreachable',
    );
    const delay = BACKOFF_MS[Math.min(this.attempt - 1, BACKOFF_MS.length - 1)]!;
    this.restartTimer = setTimeout(() => this.start(), delay);
    this.restartTimer.unref();
  }

  async stop() {
    this.isEnded = true;
    this.unsubscribe?.();
    clearTimeout(this.restartTimer);
    clearInterval(this.stallTimer);
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
    await stopChild(child, 2000);
    this.setState('ended', null);
  }
}
