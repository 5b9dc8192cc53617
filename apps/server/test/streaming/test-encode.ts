import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * A real-time H.264 + AAC source muxed as the composer's encoder does (ADR 021): MPEG-TS on stdout
 * and FLV with its sequence headers on fd 4, from one encode.
 */
export function testEncode(
  onChunk: (chunk: Buffer) => void,
  onFlv: (chunk: Buffer) => void = () => undefined,
  offsetS = 0,
) {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine'],
      ...['-map', '0:v:0', '-map', '1:a:0'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '60', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-flags', '+global_header', '-output_ts_offset', offsetS.toFixed(3)],
      ...[
        '-f',
        'tee',
        '[f=mpegts:max_delay=0:flush_packets=1]pipe\\:1|[f=flv:flvflags=no_duration_filesize:flush_packets=1]pipe\\:4',
      ],
    ],
    { stdio: ['ignore', 'pipe', 'ignore', 'ignore', 'pipe'] },
  );
  child.stdout?.on('data', onChunk);
  (child.stdio[4] as Readable).on('data', onFlv);
  return child;
}
