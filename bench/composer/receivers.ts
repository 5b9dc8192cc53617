import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { delayFrom, readCode, FRAME } from './timestamp-code.js';
import { stopChild } from '@meetcast/server/tooling';

/** More than an RTMP handshake and its commands (about 4 kB): media is arriving. */
const MEDIA_BYTES = 16 * 1024;

/**
 * A local RTMP ingest: ffmpeg listening on a loopback port, copying what it receives into an FLV
 * file. With `decode`, it also decodes the video small (rgb24 at FRAME size) and reads the code
 * painted by the clock participant from every frame: that is the glass-to-glass measurement.
 * Publishers reach it through a TCP relay on `port` (ffmpeg listens 100 above) that notes when
 * media bytes first arrive: ffmpeg itself writes its file only after probing a second of them.
 */
export class BenchReceiver {
  private child: ChildProcess | undefined;
  private relay: Server | undefined;
  /** When media bytes (more than a handshake) first reached this receiver's socket. */
  firstBytesAt: number | undefined;
  /** When the receiving ffmpeg first wrote to its file. */
  firstFileBytesAt: number | undefined;
  /** Glass-to-glass of every frame whose painted clock could be read, in ms. */
  readonly delays: number[] = [];
  private pending: Buffer = Buffer.alloc(0);
  /** Frames decoded so far (with or without a readable code). */
  frames = 0;
  /** Hears every decoded frame (rgb24 at FRAME size, valid only during the call) with the wall time it was decoded. */
  onFrame: ((frame: Buffer, decodedAt: number) => void) | undefined;

  private generation = 0;

  constructor(
    readonly port: number,
    /** Where it writes; a publisher after the first (one that reconnected) goes to `file.N`. */
    private readonly prefix: string,
    private readonly decode: boolean,
  ) {}

  /** Publishers it has listened for so far (1: the first one never left). */
  get publishers() {
    return this.generation;
  }

  /** The largest file received: the longest-lasting publisher's. */
  get largestFile() {
    let best = this.prefix;
    let bestSize = -1;
    for (let generation = 1; generation <= this.generation; generation++) {
      const file = generation <= 1 ? this.prefix : `${this.prefix}.${generation}`;
      const size = existsSync(file) ? statSync(file).size : -1;
      if (size > bestSize) [best, bestSize] = [file, size];
    }
    return best;
  }

  /** The file of the current (or last) publisher. */
  get file() {
    return this.generation <= 1 ? this.prefix : `${this.prefix}.${this.generation}`;
  }

  get url() {
    return `rtmp://127.0.0.1:${this.port}/live`;
  }

  private startRelay() {
    if (this.relay) return;
    this.relay = createServer((publisher) => {
      let bytes = 0;
      const ingest = createConnection(this.port + 100, '127.0.0.1');
      publisher.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MEDIA_BYTES) this.firstBytesAt ??= Date.now();
      });
      publisher.pipe(ingest).pipe(publisher);
      const close = () => {
        publisher.destroy();
        ingest.destroy();
      };
      publisher.on('error', close).on('close', close);
      ingest.on('error', close).on('close', close);
    }).listen(this.port, '127.0.0.1');
  }

  start() {
    this.startRelay();
    this.generation += 1;
    const outputs = ['-map', '0', '-c', 'copy', '-flush_packets', '1', '-f', 'flv', this.file];
    const decoded = [
      '-map',
      '0:v',
      '-vf',
      `scale=${FRAME.width}:${FRAME.height}:flags=neighbor`,
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      'pipe:1',
    ];
    const child = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        // No buffering and one decoding thread: frame threads would add their own frames of delay.
        ...(this.decode ? ['-fflags', 'nobuffer', '-flags', 'low_delay', '-threads', '1'] : []),
        ...['-analyzeduration', '1000000', '-listen', '1', '-i', `rtmp://127.0.0.1:${this.port + 100}/live/bench-key`],
        ...outputs,
        ...(this.decode ? decoded : []),
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.child = child;
    // Like a real ingest, it takes the next publisher when one leaves (unless killed or stopped).
    child.once('exit', () => {
      if (this.child === child) this.start();
    });
    const frameBytes = FRAME.width * FRAME.height * 3;
    child.stdout?.on('data', (chunk: Buffer) => {
      const now = Date.now();
      this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
      while (this.pending.length >= frameBytes) {
        const frame = this.pending.subarray(0, frameBytes);
        this.frames += 1;
        if (process.env.BENCH_DUMP && this.frames === 150) writeFileSync(process.env.BENCH_DUMP, frame);
        const code = readCode(frame);
        if (code !== undefined) this.delays.push(delayFrom(code, now));
        this.onFrame?.(frame, now);
        this.pending = this.pending.subarray(frameBytes);
      }
    });
    return this;
  }

  bytes() {
    let sum = 0;
    for (let generation = 1; generation <= this.generation; generation++) {
      const file = generation <= 1 ? this.prefix : `${this.prefix}.${generation}`;
      if (existsSync(file)) sum += statSync(file).size;
    }
    return sum;
  }

  /** Polls until media bytes reach the socket, then the file; answers both moments (NaN: not within the time). */
  async waitForFirstBytes(timeoutMs: number): Promise<{ socket: number; file: number }> {
    const deadline = Date.now() + timeoutMs;
    while ((this.firstBytesAt === undefined || this.firstFileBytesAt === undefined) && Date.now() < deadline) {
      if (this.bytes() > 0) this.firstFileBytesAt ??= Date.now();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { socket: this.firstBytesAt ?? NaN, file: this.firstFileBytesAt ?? NaN };
  }

  kill() {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  async stop() {
    this.relay?.close();
    this.relay = undefined;
    const child = this.child;
    this.child = undefined;
    await stopChild(child, 5000, 'SIGINT');
  }
}

/** The video timestamps (seconds) of a received or recorded file. */
export function videoTimes(file: string): number[] {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', file],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
}

/**
 * Frames of the encode a destination never got: the recording holds every frame the encode made
 * (it is written on this machine); the destination started at the same keyframe, so both share
 * their timestamps. Counted over the span the destination received (its start and end are the
 * broadcast's own).
 */
export function framesMissing(received: number[], recorded: number[], fps = 30) {
  const first = received[0] ?? 0;
  const last = received.at(-1) ?? 0;
  const half = 0.5 / fps;
  const expected = recorded.filter((time) => time >= first - half && time <= last + half).length;
  return { received: received.length, expected, missing: Math.max(0, expected - received.length) };
}
