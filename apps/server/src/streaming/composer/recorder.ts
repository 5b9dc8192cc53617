import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopChild, type ProcessLedger } from './child-processes.js';
import { keepTail, RECORD_FROM_ENCODE } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';

const run = promisify(execFile);
/** A recorder's ffmpeg that exited while the broadcast runs is started again (into a new part) after this. */
const RESTART_MS = 1000;

/**
 * The recording: the same encode copied into a fragmented MP4 (playable up to the last fragment
 * even if the server dies), made seekable (faststart) when the broadcast ends. An ffmpeg that
 * exits before then (it could not probe the encode on a busy machine, or crashed) is started again
 * into a new part, and the parts are joined at the end: a failure costs a second, not the recording.
 */
export class Recorder {
  private child: ChildProcess | undefined;
  private tail: () => string = () => '';
  private unsubscribe: (() => void) | undefined;
  /** One fragmented file per ffmpeg run, in order, written beside the finished file. */
  private readonly parts: string[] = [];
  private restart: NodeJS.Timeout | undefined;
  private isFinishing = false;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    /** The finished file; the parts are written beside it as `.part.mp4`, `.part2.mp4`, … */
    private readonly file: string,
    private readonly log: (message: string) => void,
  ) {}

  start() {
    if (this.isFinishing) return;
    const part = this.file.replace(/\.mp4$/, `.part${this.parts.length === 0 ? '' : this.parts.length + 1}.mp4`);
    this.parts.push(part);
    const child = this.ledger.spawn(
      'ffmpeg',
      [
        '-y',
        ...RECORD_FROM_ENCODE,
        // MPEG-TS carries AAC with ADTS headers; MP4 wants them as codec configuration.
        '-bsf:a',
        'aac_adtstoasc',
        '-movflags',
        '+frag_keyframe+empty_moov+default_base_moof',
        // Each fragment reaches the disk when it is made, not when ffmpeg's buffer fills: what was
        // recorded before an ffmpeg dies stays (at a low bitrate a buffer held several fragments).
        '-flush_packets',
        '1',
        '-f',
        'mp4',
        part,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.child = child;
    child.stdin?.on('error', () => undefined);
    const tail = keepTail(child.stderr);
    this.tail = tail;
    const unsubscribe = this.source.add((chunk) => this.write(child, chunk));
    this.unsubscribe = unsubscribe;
    child.once('exit', (code, signal) => {
      if (this.isFinishing || this.child !== child) return;
      unsubscribe();
      this.child = undefined;
      this.log(`recorder exited (${code ?? signal}): ${tail()}; recording on into a new part`);
      this.restart = setTimeout(() => this.start(), RESTART_MS);
    });
  }

  private write(child: ChildProcess, chunk: Buffer) {
    const stdin = child.stdin;
    // A recording is never worth stalling the encode: a disk that cannot keep up loses bytes.
    if (stdin && stdin.writable && stdin.writableLength < 16 * 1024 * 1024) stdin.write(chunk);
  }

  /** Ends the recording; answers its length in seconds, or undefined when nothing usable was written. */
  async finish(): Promise<number | undefined> {
    this.isFinishing = true;
    clearTimeout(this.restart);
    this.unsubscribe?.();
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
    await stopChild(child, 10_000, null);
    const written = this.parts.filter((part) => existsSync(part) && statSync(part).size > 0);
    if (written.length === 0) return undefined;
    try {
      await this.makeOneSeekableFile(written);
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'default=noprint_wrappers=1:nokey=1',
        this.file,
      ]);
      const seconds = Number(stdout.trim());
      return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
    } catch (error) {
      throw new Error(`recording could not be finished: ${String(error)} ${this.tail()}`, { cause: error });
    } finally {
      for (const part of this.parts) rmSync(part, { force: true });
    }
  }

  /**
   * Joins the parts (each starts at a keyframe) and moves the index to the front. If that fails,
   * the longest part, fragmented (it plays, if less seekably), becomes the recording.
   */
  private async makeOneSeekableFile(parts: string[]) {
    const folder = mkdtempSync(join(tmpdir(), 'meetcast-recording-'));
    try {
      const list = join(folder, 'parts.txt');
      writeFileSync(list, parts.map((part) => `file '${part.replaceAll("'", "'\\''")}'\n`).join(''));
      await run('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'concat', '-safe', '0', '-i', list],
        ...['-c', 'copy', '-movflags', '+faststart', this.file],
      ]);
    } catch {
      const longest = parts.reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));
      renameSync(longest, this.file);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
}
