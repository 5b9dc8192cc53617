import type { Readable } from 'node:stream';

/**
 * ffmpeg arguments of every reader of the encode (pushers, the recorder): MPEG-TS on stdin, copied.
 * MPEG-TS may add streams at any time, so ffmpeg probes its whole window before writing anything,
 * on a stream made in real time: 3 s held every destination's first bytes back by as much (a pipe
 * measured 6.3–7.9 s to first bytes with 3 s, 2.0–3.4 s with 0.5 s). A reader starts at a keyframe
 * with the tables (MediaFanOut), so its first packets carry both streams' parameters; each reader
 * picks its window (`copyFromEncodeProbing`) by how much it can wait.
 */
export const COPY_FROM_ENCODE = [
  ...['-hide_banner', '-loglevel', 'error'],
  ...['-analyzeduration', '1000000', '-probesize', '5000000'],
  ...['-f', 'mpegts', '-i', 'pipe:0'],
  // Both streams by name: left to itself, ffmpeg drops a stream whose parameters its probe did not
  // find (a picture with no size yet) and pushes sound alone; named, it fails and the reader retries.
  ...['-map', '0:v:0', '-map', '0:a:0', '-c', 'copy'],
];

/** The same arguments probing `seconds` instead (see COPY_FROM_ENCODE). */
export function copyFromEncodeProbing(seconds: number) {
  return COPY_FROM_ENCODE.map((argument, index, all) =>
    all[index - 1] === '-analyzeduration' ? String(Math.round(seconds * 1_000_000)) : argument,
  );
}

/**
 * The recording's reader: no one waits for its first bytes, so it keeps the 3 s probe (with 1 s,
 * recordings of an encode started on a busy machine failed to be written).
 */
export const RECORD_FROM_ENCODE = copyFromEncodeProbing(3);

export interface FfmpegProgress {
  frame: number;
  /** Frames ffmpeg repeated to keep a constant rate: the picture did not come in time. */
  dupFrames: number;
  fps: number;
  totalBytes: number;
}

/** Reads ffmpeg's `-progress` blocks (key=value lines ending with `progress=…`). */
export function readProgress(stream: Readable, onBlock: (progress: FfmpegProgress) => void) {
  let pending = '';
  let block: Record<string, string> = {};
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const separator = line.indexOf('=');
      if (separator < 0) continue;
      const key = line.slice(0, separator).trim();
      block[key] = line.slice(separator + 1).trim();
      if (key === 'progress') {
        onBlock({
          frame: Number(block.frame) || 0,
          dupFrames: Number(block.dup_frames) || 0,
          fps: Number(block.fps) || 0,
          totalBytes: Number(block.total_size) || 0,
        });
        block = {};
      }
    }
  });
}

/** The last lines ffmpeg wrote to stderr, for the log when it fails. */
export function keepTail(stream: Readable | null, lines = 8) {
  const tail: string[] = [];
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    tail.push(...chunk.split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - lines));
  });
  return () => tail.join(' | ');
}
