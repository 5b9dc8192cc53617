import type { Readable } from 'node:stream';

/**
 * ffmpeg arguments of every reader of the encode (pushers, the recorder): MPEG-TS on stdin, copied.
 * Probing reads ahead, it does not hold the stream back: it may take a slow first keyframe's time.
 */
export const COPY_FROM_ENCODE = [
  ...['-hide_banner', '-loglevel', 'error'],
  ...['-analyzeduration', '3000000', '-probesize', '5000000'],
  ...['-f', 'mpegts', '-i', 'pipe:0', '-c', 'copy'],
];

export interface FfmpegProgress {
  frame: number;
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
