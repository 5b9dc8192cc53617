/**
 * The clock participant's camera and microphone without a browser: Node paints the same clock as
 * the page's canvas (CLOCK_CAMERA_SCRIPT: magenta, 8×3 cells of the time, white on the flash
 * moments) and switches the same 1-kHz tone on for the same 100 ms, and ffmpeg encodes them as a
 * browser would (VP8 in real time, Opus) into RTP for the light participant's WebRTC. A headless
 * Chromium beside the composer on two cores held its own camera back by seconds (ADR 014); a
 * participant's browser runs on the participant's machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CANVAS, CELLS, codeAt, isSyncMoment } from './timestamp-code.js';

const FPS = 30;
/** The page's canvas at half its size (the reader finds the clock by its magenta and scales): a cheaper encode. */
const SIZE = { width: CANVAS.width / 2, height: CANVAS.height / 2 };
const SCALE = SIZE.width / CANVAS.width;
const SAMPLE_RATE = 48_000;
const TONE_HZ = 1000;
const BYTES_PER_PIXEL = 3;
const FRAME_BYTES = SIZE.width * SIZE.height * BYTES_PER_PIXEL;
/** A camera skips frames rather than queue them: more than this waiting in the pipe, the frame is not sent. */
const MAX_QUEUED_FRAMES = 2;

/** The magenta background, copied into each frame before its cells are painted. */
function magentaFrame() {
  const frame = Buffer.alloc(FRAME_BYTES);
  for (let at = 0; at < FRAME_BYTES; at += BYTES_PER_PIXEL) {
    frame[at] = 255;
    frame[at + 2] = 255;
  }
  return frame;
}

function paint(frame: Buffer, background: Buffer, now: number) {
  if (isSyncMoment(now)) {
    frame.fill(255);
    return;
  }
  background.copy(frame);
  const code = codeAt(now);
  const cellWidth = (CELLS.width / CELLS.columns) * SCALE;
  const cellHeight = Math.round((CELLS.height / CELLS.rows) * SCALE);
  const rowBytes = SIZE.width * BYTES_PER_PIXEL;
  for (let bit = 0; bit < CELLS.columns * CELLS.rows; bit++) {
    const value = (code >> bit) & 1 ? 255 : 0;
    const column = bit % CELLS.columns;
    const left = Math.round(CELLS.left * SCALE + column * cellWidth) * BYTES_PER_PIXEL;
    const right = Math.round(CELLS.left * SCALE + (column + 1) * cellWidth) * BYTES_PER_PIXEL;
    const top = Math.round(CELLS.top * SCALE) + Math.floor(bit / CELLS.columns) * cellHeight;
    for (let y = top; y < top + cellHeight; y++) frame.fill(value, y * rowBytes + left, y * rowBytes + right);
  }
}

/** `samples` of the tone (on or off by each sample's own moment), 16-bit stereo. */
function sound(firstSampleAt: number, firstSample: number, samples: number) {
  const pcm = Buffer.alloc(samples * 4);
  for (let n = 0; n < samples; n++) {
    const index = firstSample + n;
    const isOn = isSyncMoment(firstSampleAt + (n * 1000) / SAMPLE_RATE);
    const value = isOn ? Math.round(16_000 * Math.sin((2 * Math.PI * TONE_HZ * index) / SAMPLE_RATE)) : 0;
    pcm.writeInt16LE(value, n * 4);
    pcm.writeInt16LE(value, n * 4 + 2);
  }
  return pcm;
}

const FFMPEG = ['-hide_banner', '-loglevel', 'error'];

export class LightClock {
  private constructor(
    private readonly processes: ChildProcess[],
    private readonly timer: ReturnType<typeof setInterval>,
  ) {}

  /** Starts painting and beeping into RTP on the loopback (`videoPort`, `audioPort`). */
  static start(videoPort: number, audioPort: number): LightClock {
    const camera = spawn(
      'ffmpeg',
      [
        // Stamped as they arrive: a frame the camera skipped leaves a gap, as in a browser.
        ...[...FFMPEG, '-use_wallclock_as_timestamps', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-video_size', `${SIZE.width}x${SIZE.height}`],
        ...['-framerate', String(FPS), '-i', 'pipe:0', '-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p'],
        // One thread: libvpx's worker threads spin while they wait, 0.2 core for a small picture.
        ...['-c:v', 'libvpx', '-threads', '1', '-deadline', 'realtime', '-cpu-used', '16', '-lag-in-frames', '0'],
        ...['-b:v', '600k', '-g', String(FPS), '-error-resilient', '1'],
        ...['-f', 'rtp', `rtp://127.0.0.1:${videoPort}?pkt_size=1200`],
      ],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    const microphone = spawn(
      'ffmpeg',
      [
        ...FFMPEG,
        ...['-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '2', '-i', 'pipe:0'],
        ...['-c:a', 'libopus', '-b:a', '32k', '-application', 'lowdelay', '-frame_duration', '10'],
        ...['-f', 'rtp', `rtp://127.0.0.1:${audioPort}`],
      ],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    for (const child of [camera, microphone]) child.stdin.on('error', () => undefined);

    const background = magentaFrame();
    const startedAt = Date.now();
    let framesSent = 0;
    let samplesSent = 0;
    // Frames and samples are due by the wall clock, whatever the timer's own lateness.
    const timer = setInterval(() => {
      const now = Date.now();
      const framesDue = Math.floor(((now - startedAt) * FPS) / 1000);
      if (framesDue > framesSent) {
        framesSent = framesDue;
        if (camera.stdin.writableLength <= FRAME_BYTES * MAX_QUEUED_FRAMES) {
          const frame = Buffer.allocUnsafe(FRAME_BYTES);
          paint(frame, background, now);
          camera.stdin.write(frame);
        }
      }
      const samplesDue = Math.floor(((now - startedAt) * SAMPLE_RATE) / 1000);
      if (samplesDue > samplesSent) {
        const firstAt = startedAt + (samplesSent * 1000) / SAMPLE_RATE;
        microphone.stdin.write(sound(firstAt, samplesSent, samplesDue - samplesSent));
        samplesSent = samplesDue;
      }
    }, 5);
    return new LightClock([camera, microphone], timer);
  }

  stop() {
    clearInterval(this.timer);
    for (const child of this.processes) child.kill('SIGKILL');
  }
}
