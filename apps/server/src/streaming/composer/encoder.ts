import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { stopChild, type ProcessLedger } from './child-processes.js';
import { keepTail, readProgress } from './ffmpeg-progress.js';
import type { Quality } from './capacity.js';
import type { VirtualScreen } from './virtual-screen.js';

/**
 * The one encode of a broadcast: the virtual screen and sound card into H.264 + AAC, as MPEG-TS on
 * stdout. Every destination, the recording and the watch page are fed from these bytes; nothing
 * here ever waits for them (see MediaFanOut).
 */
/** About half a second of frames at 30 fps. */
const GRAB_QUEUE_FRAMES = 16;
/** How much later the sound's timestamps are set than the sound card gives them (see start()). */
const SOUND_STAMP_OFFSET_S = 0.25;

export class Encoder extends EventEmitter<{ data: [Buffer]; exit: [string] }> {
  private child: ChildProcess | undefined;
  fps = 0;
  private isStopping = false;

  constructor(
    private readonly ledger: ProcessLedger,
    private readonly screen: VirtualScreen,
    private readonly quality: Quality,
  ) {
    super();
  }

  start() {
    const { width, height, fps, videoKbps } = this.quality;
    const { size } = this.screen;
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      // A short queue of grabbed frames: when the encoder falls behind (a busy machine), the grabber
      // waits and frames are skipped, rather than 512 frames (17 s) queueing up as delay.
      '-thread_queue_size',
      String(GRAB_QUEUE_FRAMES),
      '-f',
      'x11grab',
      '-draw_mouse',
      '0',
      '-framerate',
      String(fps),
      '-video_size',
      `${size.width}x${size.height}`,
      '-i',
      `${this.screen.display}.0+0,0`,
      // ffmpeg emits each picture only once it holds sound stamped as late, and the sound card's
      // stamps trail the screen's: stamped 0.25 s later, pictures go out at once. Measured with a
      // page that flashes and beeps together (ADR 014): sound and picture stay as aligned as before.
      '-itsoffset',
      String(SOUND_STAMP_OFFSET_S),
      '-thread_queue_size',
      '512',
      '-f',
      'pulse',
      '-ac',
      '2',
      '-ar',
      '48000',
      '-i',
      this.screen.audioSource,
      ...(width === size.width ? [] : ['-vf', `scale=${width}:${height}`]),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(fps),
      // A keyframe every second (the platforms ask for 2 s or less) and never in between: the HLS
      // viewers' segments are one keyframe each, so they can play 2 s behind the live edge (ADR 018).
      '-g',
      String(fps),
      '-keyint_min',
      String(fps),
      '-sc_threshold',
      '0',
      '-b:v',
      `${videoKbps}k`,
      '-maxrate',
      `${videoKbps}k`,
      '-bufsize',
      `${videoKbps}k`,
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-f',
      'mpegts',
      '-muxdelay',
      '0',
      '-flush_packets',
      '1',
      '-progress',
      'pipe:3',
      '-stats_period',
      '1',
      'pipe:1',
    ];
    const child = this.ledger.spawn('ffmpeg', args, {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, PULSE_SERVER: this.screen.pulseServer, XAUTHORITY: this.screen.xauthority },
    });
    this.child = child;
    const tail = keepTail(child.stderr);
    child.stdout?.on('data', (chunk: Buffer) => this.emit('data', chunk));
    readProgress(child.stdio[3] as Readable, (progress) => {
      this.fps = progress.fps;
    });
    child.once('exit', (code, signal) => {
      if (!this.isStopping) this.emit('exit', `encoder exited (${code ?? signal}): ${tail()}`);
    });
  }

  async stop() {
    this.isStopping = true;
    await stopChild(this.child, 3000, 'SIGINT');
  }
}
