import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';

/** A piece of what a receiver got (one keyframe's worth), complete and decodable on its own. */
export interface ReceivedSegment {
  path: string;
  /** Its first and last times (s), in the stream's own clock, as in the FLV file. */
  start: number;
  end: number;
}

/**
 * A real RTMP server for tests: ffmpeg listening on a loopback port, writing what it receives to
 * an FLV file. Like a real ingest it takes the next publisher when one leaves (each into a file of
 * its own); `kill` is a receiver dying, `start` one coming back.
 *
 * With `segments`, it also cuts what it receives into MPEG-TS pieces at each keyframe (the composer
 * sends one a second). A test that reads the pictures arriving now decodes the newest complete
 * pieces: a seek into a long FLV still being written decodes as grey, and its last packet may be
 * half written.
 */
export class RtmpReceiver {
  private child: ChildProcess | undefined;
  private generation = 0;
  private log = '';
  private readonly files: string[] = [];

  constructor(
    readonly port: number,
    readonly path: string,
    private readonly outputPrefix: string,
    private readonly options: { segments?: boolean } = {},
  ) {}

  get url() {
    return `rtmp://127.0.0.1:${this.port}/${this.path}`;
  }

  /** The file of the current (or last) listening round. */
  get file() {
    return `${this.outputPrefix}-${this.generation}.flv`;
  }

  /** The folder of the current round's pieces (with `segments`). */
  get segmentFolder() {
    return `${this.outputPrefix}-${this.generation}-segments`;
  }

  /** The current round's complete pieces, oldest first (with `segments`). */
  segments(): ReceivedSegment[] {
    const list = `${this.segmentFolder}/list.csv`;
    if (!existsSync(list)) return [];
    return readFileSync(list, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, start, end] = line.split(',');
        return { path: `${this.segmentFolder}/${name}`, start: Number(start), end: Number(end) };
      });
  }

  private outputArgs() {
    if (!this.options.segments) return ['-c', 'copy', '-flush_packets', '1', '-f', 'flv', this.file];
    mkdirSync(this.segmentFolder, { recursive: true });
    const pieces =
      `[f=segment:segment_time=0.5:segment_format=mpegts:reset_timestamps=0:` +
      `segment_list=${this.segmentFolder}/list.csv:segment_list_type=csv]${this.segmentFolder}/%05d.ts`;
    return ['-map', '0', '-c', 'copy', '-f', 'tee', `[f=flv:flush_packets=1]${this.file}|${pieces}`];
  }

  start() {
    this.generation += 1;
    this.files.push(this.file);
    const child = spawn(
      'ffmpeg',
      [
        // Warnings name a publisher's application and stream when they are not the expected ones.
        ...['-hide_banner', '-loglevel', 'warning', '-y', '-analyzeduration', '1000000', '-listen', '1'],
        ...['-i', this.url, ...this.outputArgs()],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.log += text;
    });
    child.once('exit', () => {
      // The publisher left: listen for the next one, unless the test killed or stopped this receiver.
      if (this.child === child) this.start();
    });
    return this;
  }

  /** Streams published under another application or stream name than this receiver's (ffmpeg's warnings). */
  publishedPaths(): { app: string | undefined; stream: string | undefined } {
    return {
      app: /App field don't match up: (\S+) <->/.exec(this.log)?.[1],
      stream: /Unexpected stream (\S+), expecting/.exec(this.log)?.[1],
    };
  }

  /** Everything received, over every publisher so far. */
  bytes() {
    return this.files.reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
  }

  /** The largest file received: the longest-lasting publisher's, for ffprobe. */
  get largestFile() {
    return [...this.files].sort((a, b) => sizeOf(b) - sizeOf(a))[0] ?? this.file;
  }

  /** A receiver that hangs: it stops reading (SIGSTOP) until `resume`. */
  pause() {
    this.child?.kill('SIGSTOP');
  }

  resume() {
    this.child?.kill('SIGCONT');
  }

  kill() {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  /** Asks ffmpeg to finish its file (SIGINT), and kills it if it has not after 5 s. */
  async stop() {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.kill('SIGINT');
    await exited;
    clearTimeout(timer);
  }
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/**
 * Whether something listens on this loopback TCP port, read from the kernel's table rather than by
 * connecting: a probe connection would be the one connection an `ffmpeg -listen 1` receiver takes.
 */
export function isListening(port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].some(
    (table) =>
      existsSync(table) &&
      readFileSync(table, 'utf8')
        .split('\n')
        .some((row) => {
          const [, local, , state] = row.trim().split(/\s+/);
          return state === '0A' && local?.endsWith(`:${hexPort}`);
        }),
  );
}

/** Waits until a receiver started a moment ago listens: ffmpeg takes seconds to bind on a busy machine. */
export async function untilListening(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!isListening(port)) {
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
