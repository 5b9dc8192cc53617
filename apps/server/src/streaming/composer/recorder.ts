import { execFile, type ChildProcess } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { stopChild, type ProcessLedger } from './child-processes.js';
import { keepTail, RECORD_FROM_ENCODE } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';

const run = promisify(execFile);

/**
 * The recording: the same encode copied into a fragmented MP4 (playable up to the last fragment
 * even if the server dies), made seekable (faststart) when the broadcast ends.
 */
export class Recorder {
  private child: ChildProcess | undefined;
  private tail: () => string = () => '';

  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly source: MediaFanOut,
    /** The finished file; the fragments are written beside it as `.part.mp4`. */
    private readonly file: string,
  ) {}

  private get partFile() {
    return this.file.replace(/\.mp4$/, '.part.mp4');
  }

  start() {
    this.child = this.ledger.spawn(
      'ffmpeg',
      [
        '-y',
        ...RECORD_FROM_ENCODE,
        // MPEG-TS carries AAC with ADTS headers; MP4 wants them as codec configuration.
        '-bsf:a',
        'aac_adtstoasc',
        '-movflags',
        '+frag_keyframe+empty_moov+default_base_moof',
        '-f',
        'mp4',
        this.partFile,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.child.stdin?.on('error', () => undefined);
    this.tail = keepTail(this.child.stderr);
    this.unsubscribe = this.source.add((chunk) => this.write(chunk));
  }

  private write(chunk: Buffer) {
    const stdin = this.child?.stdin;
    // A recording is never worth stalling the encode: a disk that cannot keep up loses bytes.
    if (stdin && stdin.writable && stdin.writableLength < 16 * 1024 * 1024) stdin.write(chunk);
  }

  /** Ends the recording; answers its length in seconds, or undefined when nothing usable was written. */
  async finish(): Promise<number | undefined> {
    this.unsubscribe?.();
    const child = this.child;
    this.child = undefined;
    child?.stdin?.end();
    await stopChild(child, 10_000, null);
    try {
      await this.makeSeekable();
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
    }
  }

  /** Moves the index to the front; if that fails, the fragmented file (which plays, if less seekably) stays. */
  private async makeSeekable() {
    try {
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        this.partFile,
        '-c',
        'copy',
        '-movflags',
        '+faststart',
        this.file,
      ]);
      rmSync(this.partFile, { force: true });
    } catch {
      renameSync(this.partFile, this.file);
    }
  }
}
