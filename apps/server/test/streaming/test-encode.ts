import { spawn } from 'node:child_process';

/** A real-time H.264 + AAC MPEG-TS source, as the composer's encoder makes. */
export function testEncode(onChunk: (chunk: Buffer) => void) {
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360:rate=30',
      '-f',
      'lavfi',
      '-i',
      'sine',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      '60',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-f',
      'mpegts',
      '-muxdelay',
      '0',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  child.stdout.on('data', onChunk);
  return child;
}
