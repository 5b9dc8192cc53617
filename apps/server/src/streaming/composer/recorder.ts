import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { ProcessLedger } from './child-processes.js';
import { EncodeReader } from './encode-reader.js';
import { RECORD_FROM_ENCODE } from './ffmpeg-progress.js';
import type { MediaFanOut } from './media-fan-out.js';

const run = promisify(execFile);

/**
 * The recording: the same encode copied into a fragmented MP4 (playable up to the last fragment
 * even if the server dies), made seekable (faststart) when the broadcast ends. An ffmpeg that
 * exits before then (it could not probe the encode on a busy machine, or crashed) is started again
 * into a new part, and the parts are joined at the end: a failure costs a second, not the recording.
 */
export class Recorder {
  private readonly reader: EncodeReader;
  /**
   * Parts already written for this file by an earlier composer of the same broadcast (one that
   * died, or a server killed and started again): this recorder writes the parts after them, and the
   * recording is joined from all of them.
   */
  private readonly earlierParts: number;

  constructor(
    ledger: ProcessLedger,
    source: MediaFanOut,
    /** The finished file; the parts are written beside it as `.part.mp4`, `.part2.mp4`, … */
    private readonly file: string,
    log: (message: string) => void,
  ) {
    this.earlierParts = countParts(file);
    if (this.earlierParts > 0) log(`recording continues after ${this.earlierParts} earlier part(s)`);
    this.reader = new EncodeReader(
      ledger,
      source,
      {
        name: 'recorder',
        args: (attempt) => [
          '-y',
          ...RECORD_FROM_ENCODE,
          // MPEG-TS carries AAC with ADTS headers; MP4 wants them as codec configuration.
          ...['-bsf:a', 'aac_adtstoasc', '-movflags', '+frag_keyframe+empty_moov+default_base_moof'],
          // Each fragment reaches the disk when it is made, not when ffmpeg's buffer fills: what was
          // recorded before an ffmpeg dies stays (at a low bitrate a buffer held several fragments).
          ...['-flush_packets', '1', '-f', 'mp4', this.partFile(this.earlierParts + attempt)],
        ],
        // A recording is never worth stalling the encode: a disk that cannot keep up loses bytes.
        backlog: { maxBytes: 16 * 1024 * 1024, then: 'drop' },
        stopTimeoutMs: 10_000,
      },
      log,
    );
  }

  /** One fragmented file per ffmpeg run, written beside the finished file. */
  private partFile(run: number) {
    return this.file.replace(/\.mp4$/, `.part${run === 0 ? '' : run + 1}.mp4`);
  }

  start() {
    this.reader.start();
  }

  /** Ends the recording; answers its length in seconds, or undefined when nothing usable was written. */
  async finish(): Promise<number | undefined> {
    await this.reader.stop();
    const parts = Array.from({ length: this.earlierParts + this.reader.runs }, (_, run) => this.partFile(run));
    const written = parts.filter((part) => existsSync(part) && statSync(part).size > 0);
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
      throw new Error(`recording could not be finished: ${String(error)} ${this.reader.lastError()}`, { cause: error });
    } finally {
      for (const part of parts) rmSync(part, { force: true });
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

/** `{dir}/{name}.part.mp4`, `.part2.mp4`, … that exist, counted from the first without a gap. */
function countParts(file: string) {
  let count = 0;
  while (existsSync(file.replace(/\.mp4$/, `.part${count === 0 ? '' : count + 1}.mp4`))) count += 1;
  return count;
}

/**
 * The recording's name for a broadcast: `{broadcast id}-{32 random hex}.mp4` (the random part is what
 * lets someone fetch it, recording-files.ts), or the name an earlier composer of the same broadcast
 * was writing parts under in this folder, so that a composer taking over continues that recording.
 */
export function recordingNameFor(broadcastId: number, folder: string) {
  const earlier = existsSync(folder)
    ? readdirSync(folder).find((name) => new RegExp(`^${broadcastId}-[0-9a-f]{32}\\.part\\.mp4$`).test(name))
    : undefined;
  return earlier ? basename(earlier.replace(/\.part\.mp4$/, '.mp4')) : `${broadcastId}-${randomBytes(16).toString('hex')}.mp4`;
}
